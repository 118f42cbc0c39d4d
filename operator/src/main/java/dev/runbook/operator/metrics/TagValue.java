package dev.runbook.operator.metrics;

/** A tag value Micrometer accepts. */
final class TagValue {
    private TagValue() {}

    /** Micrometer refuses a null tag value; a report or a call missing a name must not cost the metric. */
    static String of(String value) {
        return value == null || value.isEmpty() ? "unknown" : value;
    }
}
