package dev.runbook.instance.backup;

/** A restore could not be done: the message says why (no such backup, the tool's error); nothing was deleted. */
public final class RestoreFailed extends RuntimeException {
    public RestoreFailed(String message) {
        super(message);
    }
}
