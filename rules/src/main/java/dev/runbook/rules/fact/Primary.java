package dev.runbook.rules.fact;

import java.util.Map;

/**
 * The custom resource a cycle reconciles. It is a {@link Resource}, so every getter works, and it
 * has its own type so that a rule can say {@code $cluster : Primary()} and never mistake a
 * secondary object for it.
 */
public final class Primary extends Resource {
    public Primary(Map<String, ?> object) {
        super(object);
    }

    @Override
    public boolean isPrimary() { return true; }
}
