package dev.runbook.instance.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What one run does, drawn from its seed alone, so that the seed replays the run: the kind of fault
 * (consecutive seeds cycle through every kind), the replication mode, and each disruption's moment
 * and length. Pauses last longer than the failover delay. What is drawn is the schedule; what the
 * cluster does meanwhile is timing, and may differ between two replays.
 */
record FaultPlan(long seed, Kind kind, boolean synchronous, boolean heavyWrites, List<Timed> disruptions) {

    enum Kind {
        PAUSE_PRIMARY_SERVER, PAUSE_PRIMARY_MANAGER, KILL_OPERATOR_DURING_FAILOVER, KILL_OPERATOR_DURING_SWITCHOVER,
        STOP_APISERVER_DURING_SWITCHOVER, KILL_REPLICA_UNDER_HEAVY_WRITES, TWO_FAULTS_AT_ONCE;

        String words() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    /** A disruption started {@code atMs} after the run's faults begin, healed {@code forMs} later. */
    record Timed(Disruption disruption, long atMs, long forMs) {
        long endMs() {
            return atMs + forMs;
        }
    }

    static FaultPlan draw(long seed, long failoverDelayMs) {
        Kind kind = Kind.values()[(int) Math.floorMod(seed, (long) Kind.values().length)];
        SplittableRandom random = new SplittableRandom(seed);    // well mixed: consecutive seeds draw unrelated runs
        boolean synchronous = random.nextBoolean();
        long pause = failoverDelayMs + between(random, 1000, 8000);    // up to past the lease: promotions after it ran out too
        List<Timed> timed = new ArrayList<>();
        switch (kind) {
            case PAUSE_PRIMARY_SERVER -> timed.add(new Timed(Disruption.pausePrimaryServer(), 0, pause));
            case PAUSE_PRIMARY_MANAGER -> timed.add(new Timed(Disruption.pausePrimaryManager(), 0, pause));
            case KILL_OPERATOR_DURING_FAILOVER -> {
                timed.add(new Timed(Disruption.killPrimaryUntilReplaced(), 0, failoverDelayMs + between(random, 6000, 10000)));
                timed.add(new Timed(Disruption.killOperator(), Math.max(0, failoverDelayMs + between(random, -1000, 3000)), between(random, 1000, 3000)));
            }
            case KILL_OPERATOR_DURING_SWITCHOVER -> {
                timed.add(new Timed(Disruption.switchover(random.nextInt(8)), 0, 0));
                timed.add(new Timed(Disruption.killOperator(), between(random, 0, 2500), between(random, 1000, 3000)));
            }
            case STOP_APISERVER_DURING_SWITCHOVER -> {
                timed.add(new Timed(Disruption.switchover(random.nextInt(8)), 0, 0));
                timed.add(new Timed(Disruption.pauseApiServer(), between(random, 0, 2000), between(random, 2000, 6000)));
            }
            case KILL_REPLICA_UNDER_HEAVY_WRITES ->
                    timed.add(new Timed(Disruption.killReplica(random.nextInt(8)), between(random, 500, 2000), between(random, 2000, 6000)));
            case TWO_FAULTS_AT_ONCE -> {
                List<Function<SplittableRandom, Timed>> singles = new ArrayList<>(singles(failoverDelayMs));
                Timed first = singles.remove(random.nextInt(singles.size())).apply(random);
                Timed second = singles.get(random.nextInt(singles.size())).apply(random);
                timed.add(first);
                timed.add(new Timed(second.disruption(), between(random, 0, 3000), second.forMs()));
            }
        }
        return new FaultPlan(seed, kind, synchronous, kind == Kind.KILL_REPLICA_UNDER_HEAVY_WRITES, List.copyOf(timed));
    }

    /** The faults a double fault combines, each with the length it has alone. */
    private static List<Function<SplittableRandom, Timed>> singles(long failoverDelayMs) {
        return List.of(
                r -> new Timed(Disruption.pausePrimaryServer(), 0, failoverDelayMs + between(r, 1000, 8000)),
                r -> new Timed(Disruption.pausePrimaryManager(), 0, failoverDelayMs + between(r, 1000, 8000)),
                r -> new Timed(Disruption.killPrimary(), 0, failoverDelayMs + between(r, 6000, 10000)),
                r -> new Timed(Disruption.killReplica(r.nextInt(8)), 0, between(r, 2000, 6000)),
                r -> new Timed(Disruption.killOperator(), 0, between(r, 1000, 3000)),
                r -> new Timed(Disruption.pauseApiServer(), 0, between(r, 2000, 6000)),
                r -> new Timed(Disruption.switchover(r.nextInt(8)), 0, 0));
    }

    private static long between(SplittableRandom random, long from, long to) {
        return from + (long) (random.nextDouble() * (to - from));
    }

    long lastEndMs() {
        return disruptions.stream().mapToLong(Timed::endMs).max().orElse(0);
    }

    String describe() {
        return kind.words() + " (" + (synchronous ? "synchronous" : "asynchronous") + (heavyWrites ? ", heavy writes" : "") + "): "
                + disruptions.stream().map(t -> t.disruption().name() + (t.forMs() > 0
                        ? String.format(Locale.ROOT, " at %.1f s for %.1f s", t.atMs() / 1000.0, t.forMs() / 1000.0)
                        : String.format(Locale.ROOT, " at %.1f s", t.atMs() / 1000.0)))
                .collect(Collectors.joining(", "));
    }
}
