package dev.runbook.operator.health;

import java.time.Duration;
import java.util.List;

/**
 * Counts deadline overruns in a row, across cycles and reloads: liveness fails once
 * {@code threshold} of them came one after the other with nothing finishing in time between them. One
 * slow cycle is reported as that cycle's failure; only a run of them says the process is unwell.
 */
public final class DeadlineOverruns implements DeadlineReport {
    public static final int DEFAULT_THRESHOLD = 3;

    private final int threshold;
    private int inARow;
    private String last;

    public DeadlineOverruns(int threshold) {
        this.threshold = threshold;
    }

    @Override
    public synchronized void exceeded(String work, Duration deadline) {
        inARow++;
        last = work + " (deadline " + deadline.toSeconds() + "s)";
    }

    @Override
    public synchronized void withinDeadline(String work) {
        inARow = 0;
    }

    /** For liveness: empty while fewer than {@code threshold} overruns came in a row. */
    public synchronized List<String> problems() {
        if (inARow < threshold) return List.of();
        return List.of(inARow + " cycles or reloads in a row exceeded their deadline, the last " + last
                + ": restarting the process is the remedy left");
    }
}
