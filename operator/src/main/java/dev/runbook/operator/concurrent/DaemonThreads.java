package dev.runbook.operator.concurrent;

import java.util.concurrent.ThreadFactory;

/**
 * Threads of the operator's own background work (reloads, probes, the webhook, leader election):
 * named, so a thread dump says whose they are, and daemons, so none of them keeps a stopping process alive.
 */
public final class DaemonThreads {
    private DaemonThreads() {}

    /** A factory whose every thread is a daemon called {@code name}. */
    public static ThreadFactory named(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
