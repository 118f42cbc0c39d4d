package dev.runbook.instance.faults;

import dev.runbook.instance.drill.Commands;
import java.util.ArrayList;
import java.util.List;

/**
 * Signals to the processes a fault pauses or kills, through kill(1): Java can send SIGKILL and
 * SIGTERM only. A PostgreSQL server is its postmaster and the postmaster's children (each child is
 * its own process group, so a group signal would miss them): pausing "the server" stops the
 * postmaster first (no new child can be forked), then every child.
 */
final class Signals {
    private Signals() {}

    static void stop(long pid) {
        send("-STOP", List.of(pid));
    }

    static void resume(long pid) {
        send("-CONT", List.of(pid));
    }

    /** SIGSTOP to the postmaster, then to each of its children: the whole server hangs, sessions included. */
    static List<Long> stopServer(long postmaster) {
        stop(postmaster);
        List<Long> all = new ArrayList<>();
        all.add(postmaster);
        ProcessHandle.of(postmaster).ifPresent(p -> p.descendants().forEach(d -> all.add(d.pid())));
        send("-STOP", all);
        return all;
    }

    /** SIGCONT to the processes {@link #stopServer} stopped (those that still exist). */
    static void resumeAll(List<Long> pids) {
        List<Long> alive = pids.stream().filter(p -> ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false)).toList();
        send("-CONT", alive);
    }

    private static void send(String signal, List<Long> pids) {
        if (pids.isEmpty()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of("kill", signal));
        pids.forEach(p -> command.add(Long.toString(p)));
        try {
            Commands.run(new ProcessBuilder(command), null, String.join(" ", command));
        } catch (IllegalStateException e) {
            // A process that exited meanwhile: kill(1) still signals the others and says so.
            if (!e.getMessage().contains("No such process")) {
                throw e;
            }
        }
    }
}
