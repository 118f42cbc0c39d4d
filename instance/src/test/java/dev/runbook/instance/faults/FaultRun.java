package dev.runbook.instance.faults;

import static org.awaitility.Awaitility.await;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Carries out one {@link FaultPlan} under the ledger's writes and judges it: the faults are started
 * and healed at their moments, the cluster is given {@link #CONVERGE} to settle, and then the
 * ledger's acknowledged writes of the run are looked up on the final primary.
 *
 * <p>A run is correct when the cluster converged (see {@link Convergence}), no write was accepted by
 * a server after another was promoted in its place, no acknowledged write was lost under synchronous
 * replication, no two promotions chose the same timeline, the contract held at every moment
 * ({@link ContractWatch}), and a switchover asked for alone was carried out. Writes lost under
 * asynchronous replication are counted, not judged.
 */
final class FaultRun {
    static final Duration CONVERGE = Duration.ofSeconds(120);

    /** What one run did and found. */
    record Result(FaultPlan plan, List<String> did, List<String> problems, long lost, long acked, long splitBrain,
                  double unavailableSeconds, double settledSeconds, boolean converged, boolean recovered) {
        boolean correct() {
            return problems.isEmpty();
        }

        String line(int index, int total) {
            return String.format(Locale.ROOT, "%s run %d/%d seed %d: %s; %s; lost %d of %d acknowledged writes, split-brain writes %d,"
                            + " unavailable %.1f s, settled %.1f s after the faults ended%s",
                    correct() ? "PASS" : "FAIL", index, total, plan.seed(), plan.describe(), String.join(", ", did), lost, acked, splitBrain,
                    unavailableSeconds, settledSeconds, correct() ? "" : " -- " + String.join("; ", problems));
        }
    }

    private final FaultWorld world;
    private final Ledger ledger;
    private final ContractWatch watch;
    private final int instances;
    private final Set<String> timelinesSeen = new HashSet<>();
    private int checkedUpTo;

    FaultRun(FaultWorld world, Ledger ledger, ContractWatch watch, int instances) {
        this.world = world;
        this.ledger = ledger;
        this.watch = watch;
        this.instances = instances;
    }

    Result run(FaultPlan plan) throws SQLException {
        List<String> problems = new ArrayList<>();
        world.setSynchronous(plan.synchronous());
        await("the primary applies spec.replication.synchronous: " + plan.synchronous()).atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(250)).until(() -> world.synchronousApplied(plan.synchronous()));
        watch.drain();
        ledger.heavy(plan.heavyWrites());
        int from = checkedUpTo;
        long started = System.nanoTime();
        List<String> expected = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<String> did = inject(plan, expected);
        problems.addAll(expected);
        ledger.heavy(false);
        long healed = System.nanoTime();
        String target = plan.disruptions().stream().map(t -> t.disruption().switchoverTarget()).filter(java.util.Objects::nonNull)
                .findFirst().orElse(null);
        // Alone, a switchover must end with its target the primary; with another fault that may move the
        // primary after it, the request must at least have been handled (a request is handled once).
        boolean alone = plan.kind() != FaultPlan.Kind.TWO_FAULTS_AT_ONCE;
        String unmet = settle(healed, target, alone);
        boolean converged = unmet.isEmpty();
        boolean recovered = converged;
        if (!converged) {
            problems.add("not converged " + CONVERGE.toSeconds() + " s after the faults ended: " + unmet);
            String still = repair(target, alone);
            recovered = still.isEmpty();
            if (!recovered) {
                problems.add("nor " + CONVERGE.toSeconds() + " s after every instance and the operator were let run again: " + still);
            }
        }
        long settled = System.nanoTime();
        if (target != null) {
            world.removeSwitchoverRequest();
        }
        List<Ledger.Ack> window = ledger.since(from);
        checkedUpTo = from + window.size();
        String primary = world.currentPrimary();
        Set<Long> present = converged ? Ledger.present(world.port(primary), world.password) : Set.of();
        long lost = converged ? window.stream().filter(a -> !present.contains(a.id())).count() : 0;
        List<Promotions.Promotion> promotions = Promotions.read(logs(), world.ports());
        List<Ledger.Ack> split = window.stream().filter(a -> Promotions.acceptedByFormerPrimary(a, promotions)).toList();
        if (!split.isEmpty()) {
            problems.add(split.size() + " writes accepted by a former primary after another was promoted (on port "
                    + split.stream().map(a -> Integer.toString(a.port())).distinct().collect(Collectors.joining(", ")) + ")");
        }
        if (plan.synchronous() && lost > 0) {
            problems.add(lost + " acknowledged writes lost under synchronous replication");
        }
        for (String reused : Promotions.reusedTimelines(promotions)) {
            if (timelinesSeen.add(reused)) {
                problems.add(reused);
            }
        }
        problems.addAll(watch.drain());
        return new Result(plan, did, problems, lost, window.size(), split.size(), unavailable(window, started, settled),
                (settled - healed) / 1e9, converged, recovered);
    }

    /** Starts and heals each disruption at its moment; returns what each start did. */
    private List<String> inject(FaultPlan plan, List<String> expected) {
        ScheduledExecutorService clock = Executors.newScheduledThreadPool(4, r -> {
            Thread t = new Thread(r, "fault-clock");
            t.setDaemon(true);
            return t;
        });
        ConcurrentLinkedQueue<String> did = new ConcurrentLinkedQueue<>();
        CountDownLatch done = new CountDownLatch(2 * plan.disruptions().size());
        for (FaultPlan.Timed t : plan.disruptions()) {
            clock.schedule(() -> step(done, did, () -> did.add(t.disruption().start(world))), t.atMs(), TimeUnit.MILLISECONDS);
            clock.schedule(() -> step(done, did, () -> {
                String unmet = t.disruption().beforeHeal(world);
                if (!unmet.isEmpty()) {
                    expected.add(unmet);
                }
                t.disruption().end(world);
            }), t.endMs(), TimeUnit.MILLISECONDS);
        }
        try {
            await("the faults of seed " + plan.seed() + " are started and healed")
                    .atMost(Duration.ofMillis(plan.lastEndMs()).plus(Disruption.REPLACED).plus(Duration.ofSeconds(60)))
                    .pollInterval(Duration.ofMillis(100)).until(() -> done.getCount() == 0);
        } finally {
            clock.shutdownNow();
        }
        return List.copyOf(did);
    }

    private static void step(CountDownLatch done, ConcurrentLinkedQueue<String> did, Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            did.add("a fault step failed: " + e.getMessage());
        } finally {
            done.countDown();
        }
    }

    /**
     * Waits until the cluster converged, the switchover asked for ({@code target}, or null) was
     * handled (and carried out, when it was {@code alone}), and the primary acknowledges writes again;
     * "" when all of it holds, else what did not.
     */
    private String settle(long healed, String target, boolean alone) {
        String[] last = {""};
        try {
            await("the cluster converges").atMost(CONVERGE).pollInterval(Duration.ofMillis(500)).until(() -> {
                last[0] = Convergence.unmet(world, instances);
                String current = world.currentPrimary();
                if (last[0].isEmpty() && target != null && !target.equals(world.reads.status(FaultWorld.CLUSTER, "lastSwitchover"))) {
                    last[0] = "the switchover to " + target + " was not handled (status.lastSwitchover '"
                            + world.reads.status(FaultWorld.CLUSTER, "lastSwitchover") + "', the primary " + current + ")";
                } else if (last[0].isEmpty() && target != null && alone && !target.equals(current)) {
                    last[0] = "the switchover to " + target + " was handled but the primary is " + current;
                }
                if (last[0].isEmpty() && ledger.firstAckAfter(healed, world.port(current)) < 0) {
                    last[0] = "no write acknowledged by the primary " + current + " since the faults ended";
                }
                return last[0].isEmpty();
            });
            return "";
        } catch (ConditionTimeoutException e) {
            return last[0];
        }
    }

    /** After a run that did not converge: every instance may run and the operator runs; "" when the cluster then converges. */
    private String repair(String target, boolean alone) {
        world.kubelet.instances().forEach(world.kubelet::release);
        world.startOperator();
        return settle(System.nanoTime(), target, alone);
    }

    /** The longest time in [from, to] without an acknowledged write, in seconds. */
    static double unavailable(List<Ledger.Ack> acks, long from, long to) {
        List<Long> times = new ArrayList<>();
        for (Ledger.Ack a : acks) {
            if (a.ackNanos() >= from && a.ackNanos() <= to) {
                times.add(a.ackNanos());
            }
        }
        Collections.sort(times);
        long longest = 0;
        long previous = from;
        for (long t : times) {
            longest = Math.max(longest, t - previous);
            previous = t;
        }
        return Math.max(longest, to - previous) / 1e9;
    }

    private Map<String, java.nio.file.Path> logs() {
        Map<String, java.nio.file.Path> logs = new java.util.TreeMap<>();
        world.ports().keySet().forEach(i -> logs.put(i, world.kubelet.serverLogOf(i)));
        return logs;
    }
}
