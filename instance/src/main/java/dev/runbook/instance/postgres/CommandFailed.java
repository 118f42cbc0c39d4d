package dev.runbook.instance.postgres;

/** A PostgreSQL tool exited non-zero; the message carries the tool's last output lines. */
public final class CommandFailed extends RuntimeException {
    public CommandFailed(String message) {
        super(message);
    }
}
