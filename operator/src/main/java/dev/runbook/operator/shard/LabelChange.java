package dev.runbook.operator.shard;

/**
 * One change of a primary's sharding labels that the sharder writes, as data. Each is written with the
 * primary's resourceVersion as a precondition, so a change decided from a stale cache (an owner has
 * acknowledged a drain meanwhile) is refused by the API server and decided again on the next pass.
 */
public sealed interface LabelChange {
    String key();

    /** Give an unassigned primary, or one whose owner is dead, to {@code member}; removes any drain label. */
    record Assign(String key, String member) implements LabelChange {}

    /** Ask the live owner {@code from} to stop acting on the primary and hand it back. */
    record Drain(String key, String from) implements LabelChange {}
}
