package dev.runbook.operator.command;

/** The exit codes of every {@code runbook} command (docs/cli.md): the operator's own and the command line's. */
public final class ExitCodes {
    public static final int OK = 0;
    /** A check failed: a refused plan, a failing scenario. */
    public static final int CHECK_FAILED = 1;
    /** Bad input: an unreadable bundle, a DRL error, an invalid state file, a wrong option. */
    public static final int BAD_INPUT = 2;

    private ExitCodes() {}
}
