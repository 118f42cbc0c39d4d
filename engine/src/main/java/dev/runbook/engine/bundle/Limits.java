package dev.runbook.engine.bundle;

import java.time.Duration;
import java.util.List;

/**
 * What a cycle may do at most. A runaway rule is stopped by {@code maxFirings}; a plan larger than
 * {@code maxActions}, touching a protected kind, or leaving the primary's namespace (unless
 * {@code anyNamespace}) is refused whole. {@code cycleDeadline}, when set, shortens the operator's
 * cycle deadline for this bundle (it cannot lengthen it; see docs/security.md); null when not set.
 */
public record Limits(int maxFirings, int maxActions, boolean anyNamespace, List<String> protectedKinds,
                     Duration cycleDeadline) {
    public static final int DEFAULT_MAX_FIRINGS = 10_000;
    public static final int DEFAULT_MAX_ACTIONS = 50;
    public static final List<String> DEFAULT_PROTECTED_KINDS = List.of("Namespace", "CustomResourceDefinition");

    public Limits(int maxFirings, int maxActions, boolean anyNamespace, List<String> protectedKinds) {
        this(maxFirings, maxActions, anyNamespace, protectedKinds, null);
    }

    public static Limits defaults() {
        return new Limits(DEFAULT_MAX_FIRINGS, DEFAULT_MAX_ACTIONS, false, DEFAULT_PROTECTED_KINDS);
    }
}
