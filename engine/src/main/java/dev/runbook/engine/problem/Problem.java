package dev.runbook.engine.problem;

/**
 * One thing wrong with what a user wrote, pinned to a place: {@code rules/failover.drl:12:5: message}.
 * Line and column count from 1; 0 means the place is not known more precisely than the file.
 */
public record Problem(String file, int line, int column, String message) implements java.io.Serializable {

    public static Problem inFile(String file, String message) {
        return new Problem(file, 0, 0, message);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(file);
        if (line > 0) {
            text.append(':').append(line);
            if (column > 0) text.append(':').append(column);
        }
        return text.append(": ").append(message).toString();
    }
}
