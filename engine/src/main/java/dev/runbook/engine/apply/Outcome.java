package dev.runbook.engine.apply;

/** What applying one action did to the cluster. */
public enum Outcome {
    /** An object came into being (an {@code apply} of a missing object), or an event was recorded. */
    CREATED,
    /** An existing object changed; its resourceVersion changed with it. */
    UPDATED,
    /** An object was removed. */
    DELETED,
    /** Nothing changed: the cluster already was as the action asked; no resourceVersion changed. */
    NONE
}
