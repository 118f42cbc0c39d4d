package dev.runbook.operator.error;

/** The innermost cause of an error, as one line for a message. */
public final class RootCause {
    private RootCause() {}

    /** The message of the innermost cause, or its class name when it has none. */
    public static String message(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
