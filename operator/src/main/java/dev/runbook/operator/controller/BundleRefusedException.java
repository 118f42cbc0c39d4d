package dev.runbook.operator.controller;

import java.util.List;

/**
 * A bundle the operator will not run, with why: a compile problem, a failing scenario, a kind another
 * bundle reconciles, a controller that cannot start. The bundle that ran before keeps running.
 */
public class BundleRefusedException extends RuntimeException {
    private final List<String> details;

    /**
     * @param summary one line: what was refused and why
     * @param details the lines under it: each problem as {@code file:line:col: message}, each failing scenario
     */
    public BundleRefusedException(String summary, List<String> details) {
        super(summary);
        this.details = List.copyOf(details);
    }

    public BundleRefusedException(String summary) {
        this(summary, List.of());
    }

    public List<String> details() { return details; }

    /** The summary and the details, one per line, as an event or a log line shows them. */
    public String describe() {
        return details.isEmpty() ? getMessage() : getMessage() + "\n" + String.join("\n", details);
    }
}
