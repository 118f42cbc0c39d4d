package dev.runbook.operator.controller;

import java.util.List;

/**
 * A bundle the operator will not run, with why: a compile problem, a failing scenario, a kind another
 * bundle reconciles, a controller that cannot start. The bundle that ran before keeps running.
 */
public class BundleRefusedException extends RuntimeException {
    /** The longest first line a refusal shows, so that what else it says fits in an event. */
    static final int MAX_HEADLINE = 480;
    /** At most this many lines of a {@link #brief} report, and this many characters, each line at most {@link #BRIEF_LINE}. */
    static final int BRIEF_LINES = 12;
    static final int BRIEF_CHARS = 2048;
    static final int BRIEF_LINE = 240;

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

    /**
     * As {@link #report(String)}, cut short for a reader who only needs the cause: what {@code kubectl apply}
     * prints of a webhook's denial, what {@code runbook pack} prints. The first two lines are kept whole;
     * then the summary and the details up to {@value #BRIEF_LINES} lines or {@value #BRIEF_CHARS}
     * characters, and one line saying how many were left out and {@code where} to see them all.
     */
    public String brief(String outcome, String where) {
        List<String> lines = report(outcome).lines().toList();
        StringBuilder text = new StringBuilder();
        int shown = 0;
        for (String line : lines) {
            boolean leading = shown < 2;
            if (!leading && (shown >= BRIEF_LINES || text.length() + line.length() > BRIEF_CHARS)) break;
            if (shown > 0) text.append('\n');
            text.append(leading || line.length() <= BRIEF_LINE ? line : line.substring(0, BRIEF_LINE - 3) + "...");
            shown++;
        }
        int left = lines.size() - shown;
        if (left > 0) text.append("\n... ").append(left).append(left == 1 ? " more line: " : " more lines: ").append(where);
        return text.toString();
    }

    /** The summary and the details, one per line, as an event or a log line shows them. */
    public String describe() {
        return details.isEmpty() ? getMessage() : getMessage() + "\n" + String.join("\n", details);
    }
}
