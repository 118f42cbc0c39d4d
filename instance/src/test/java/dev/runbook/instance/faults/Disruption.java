package dev.runbook.instance.faults;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

/**
 * One fault, started at a moment of a run and healed at another: a process paused or killed, the
 * operator killed, the API server paused, a switchover asked for. Whom it hits (the primary, a
 * replica) is resolved when it starts, from what the cluster records then; {@link #start} returns
 * what it did, in words, for the run's line.
 */
abstract class Disruption {
    /**
     * How long a hung server may go unseen (docs/instance-manager.md#probes): the pass asks it with a 5-second
     * limit, then the pass interval and the kubelet's next probe.
     */
    static final Duration HANG_SEEN_WITHIN = Duration.ofSeconds(8);

    /** The kind, as the run's line names it. */
    abstract String name();

    abstract String start(FaultWorld world);

    abstract void end(FaultWorld world);

    /** What did not hold just before the disruption is healed that must hold by then ("" when all did). */
    String beforeHeal(FaultWorld world) {
        return "";
    }

    /** Whether the run must end with the switchover it asked for carried out. */
    String switchoverTarget() {
        return null;
    }

    /** SIGSTOP of the primary's postmaster and every child: its sessions hang in the middle of what they do. */
    static Disruption pausePrimaryServer() {
        return new Disruption() {
            private List<Long> stopped = List.of();
            private String primary = "";
            private long startedNanos;

            String name() {
                return "pause-primary-server";
            }

            String start(FaultWorld world) {
                startedNanos = System.nanoTime();
                primary = world.currentPrimary();
                OptionalLong pid = world.kubelet.postmasterPid(primary);
                if (pid.isEmpty()) {
                    return "no server of " + primary + " to pause";
                }
                stopped = Signals.stopServer(pid.getAsLong());
                return "paused the server of " + primary + " (" + stopped.size() + " processes)";
            }

            /**
             * A server hung longer than it takes to be seen hung is a failed primary: its pod may not stay ready and
             * primary throughout. A shorter hang is ridden out (no loss, no second primary, still checked).
             */
            @Override
            String beforeHeal(FaultWorld world) {
                Duration hung = Duration.ofNanos(System.nanoTime() - startedNanos);
                return stopped.isEmpty() || hung.compareTo(HANG_SEEN_WITHIN) <= 0 || !world.readyPrimary(primary) ? ""
                        : "the server of " + primary + " hung for " + hung.toMillis() / 1000.0 + " s, longer than the "
                        + HANG_SEEN_WITHIN.toSeconds() + " s in which a hang is seen, and its pod stayed ready and labelled primary";
            }

            void end(FaultWorld world) {
                Signals.resumeAll(stopped);
            }
        };
    }

    /** SIGSTOP of the primary's instance manager alone: its server goes on running. */
    static Disruption pausePrimaryManager() {
        return new Disruption() {
            private long pid = -1;

            String name() {
                return "pause-primary-manager";
            }

            String start(FaultWorld world) {
                String primary = world.currentPrimary();
                OptionalLong found = world.kubelet.managerPid(primary);
                if (found.isEmpty()) {
                    return "no instance manager of " + primary + " to pause";
                }
                pid = found.getAsLong();
                Signals.stop(pid);
                return "paused the instance manager of " + primary;
            }

            void end(FaultWorld world) {
                if (pid > 0) {
                    Signals.resume(pid);
                }
            }
        };
    }

    /** kill -9 of the primary's container (server and instance manager), started again when healed. */
    static Disruption killPrimary() {
        return killInstance("kill-primary", FaultWorld::currentPrimary);
    }

    /**
     * kill -9 of the primary's container, as a node that does not come back soon: it is started again
     * only once another instance is the primary (at most {@link #REPLACED}); the run checks that one was.
     */
    static Disruption killPrimaryUntilReplaced() {
        Disruption kill = killPrimary();
        return new Disruption() {
            private String killed = "";

            String name() {
                return "kill-primary-until-replaced";
            }

            String start(FaultWorld world) {
                killed = world.currentPrimary();
                return kill.start(world);
            }

            @Override
            String beforeHeal(FaultWorld world) {
                try {
                    org.awaitility.Awaitility.await("a failover replaces the dead " + killed).atMost(REPLACED).pollInterval(java.time.Duration.ofMillis(500))
                            .until(() -> !killed.equals(world.currentPrimary()) && !world.currentPrimary().isEmpty());
                    return "";
                } catch (org.awaitility.core.ConditionTimeoutException e) {
                    return killed + " stayed dead " + REPLACED.toSeconds() + " s and no other instance was promoted";
                }
            }

            void end(FaultWorld world) {
                kill.end(world);
            }
        };
    }

    /** How long a dead primary may wait for the failover that replaces it. */
    static final java.time.Duration REPLACED = java.time.Duration.ofSeconds(120);

    /** kill -9 of a replica's container, started again when healed; {@code pick} chooses among the replicas. */
    static Disruption killReplica(int pick) {
        return killInstance("kill-replica", world -> {
            List<String> replicas = world.replicas();
            return replicas.isEmpty() ? "" : replicas.get(pick % replicas.size());
        });
    }

    private static Disruption killInstance(String kind, java.util.function.Function<FaultWorld, String> whom) {
        return new Disruption() {
            private String killed = "";

            String name() {
                return kind;
            }

            String start(FaultWorld world) {
                killed = whom.apply(world);
                if (killed.isEmpty()) {
                    return "nothing to kill";
                }
                world.kubelet.kill9(killed);
                return "killed " + killed;
            }

            void end(FaultWorld world) {
                if (!killed.isEmpty()) {
                    world.kubelet.release(killed);
                }
            }
        };
    }

    /** kill -9 of the operator, started again when healed. */
    static Disruption killOperator() {
        return new Disruption() {
            String name() {
                return "kill-operator";
            }

            String start(FaultWorld world) {
                world.killOperator();
                return "killed the operator";
            }

            void end(FaultWorld world) {
                world.startOperator();
            }
        };
    }

    /** SIGSTOP of the API server: every client's requests hang until it is resumed. */
    static Disruption pauseApiServer() {
        return new Disruption() {
            private long pid = -1;

            String name() {
                return "pause-apiserver";
            }

            String start(FaultWorld world) {
                pid = world.apiserverPid();
                Signals.stop(pid);
                return "paused the API server";
            }

            void end(FaultWorld world) {
                if (pid > 0) {
                    Signals.resume(pid);
                }
            }
        };
    }

    /** A switchover asked for (spec.switchover.targetInstance) to a replica; {@code pick} chooses which. */
    static Disruption switchover(int pick) {
        return new Disruption() {
            private String target;

            String name() {
                return "switchover";
            }

            String start(FaultWorld world) {
                List<String> replicas = world.replicas();
                if (replicas.isEmpty()) {
                    return "no replica to switch over to";
                }
                target = replicas.get(pick % replicas.size());
                world.requestSwitchover(target);
                return "asked for a switchover to " + target;
            }

            void end(FaultWorld world) {
                // the request stays until the run has checked it, as a user leaves it
            }

            @Override
            String switchoverTarget() {
                return target;
            }
        };
    }
}
