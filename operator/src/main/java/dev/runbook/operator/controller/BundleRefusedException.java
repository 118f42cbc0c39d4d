package dev.runbook.operator.controller;

import java.util.List;

/**
 * A bundle the operator will not run, with why: a compile problem, a failing scenario, a kind another
 * bundle reconciles, a controller that cannot start. The bundle that ran before keeps running.
 */
public class BundleRefusedException extends RuntimeException {
    /** The longest first line a refusal shows, so that what else it says fits in an event. */
    static final int MAX_HEADLINE = 480;

    private final String headline;
    private final List<String> details;

    /**
     * @param summary one line: what was refused and why
     * @param details the lines under it: each problem as {@code file:line:col: message}, each failing scenario
     */
    public BundleRefusedException(String summary, List<String> details) {
        this(summary, details.isEmpty() ? summary : details.get(0), details);
    }

    /**
     * @param headline what failed, first: the first problem as {@code file:line:col: message}, or the
     *                 failing scenarios' names and the first difference
     */
    public BundleRefusedException(String summary, String headline, List<String> details) {
        super(summary);
        this.headline = headline.length() > MAX_HEADLINE ? headline.substring(0, MAX_HEADLINE - 3) + "..." : headline;
        this.details = List.copyOf(details);
    }

    public BundleRefusedException(String summary) {
        this(summary, List.of());
    }

    public List<String> details() { return details; }

    /** What failed, in one line: what a refusal's event and log line start with. */
    public String headline() { return headline; }

    /**
     * The refusal as its event and log line show it: what failed, then {@code outcome} (what runs now,
     * e.g. "bundle x@v keeps running"), then the summary and every detail. The first two lines come first
     * so that an event cut at its size limit still says both.
     */
    public String report(String outcome) {
        String rest = describe();
        return headline.equals(getMessage()) ? headline + "\n" + outcome + (details.isEmpty() ? "" : "\n" + String.join("\n", details))
                : headline + "\n" + outcome + "\n" + rest;
    }

    /** The summary and the details, one per line, as an event or a log line shows them. */
    public String describe() {
        return details.isEmpty() ? getMessage() : getMessage() + "\n" + String.join("\n", details);
    }
}
