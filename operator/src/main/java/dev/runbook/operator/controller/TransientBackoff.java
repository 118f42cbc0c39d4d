package dev.runbook.operator.controller;

import io.javaoperatorsdk.operator.processing.retry.Retry;
import io.javaoperatorsdk.operator.processing.retry.RetryExecution;

import java.time.Duration;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * How long a primary waits before its cycle runs again after a temporary failure (the API server
 * timed out, answered 429 or 5xx, or the object kept changing under the operator): exponential from
 * {@link #FIRST}, doubling, capped at {@link #LONGEST} (and at the bundle's reconcile period), with
 * "equal jitter": each wait is drawn between half its exponential value and the whole of it. Never
 * gives up: a temporary failure is retried until it goes away.
 *
 * <p>Why short and jittered (docs/operations.md#the-backoff-after-a-temporary-failure): what it
 * waits out is an API server that was overloaded for a few seconds. Before, the cap was 5 minutes: at 1000 clusters the API server timed
 * out 840 requests while they converged, and a cluster whose first cycles met a few timeouts in a
 * row sat in a backoff of minutes long after the server had recovered (the last StatefulSets were
 * created at 950 s of 977). Without jitter, the primaries that failed in the same burst also retry in
 * the same burst. Any event about a primary (a change to it or its objects) still starts its cycle at
 * once, whatever the backoff; this only decides how long a primary that nothing touches waits.
 */
final class TransientBackoff implements Retry {
    /** The first retry comes after about this long (between half of it and all of it). */
    static final Duration FIRST = Duration.ofSeconds(1);
    static final double MULTIPLIER = 2;
    /** No retry waits longer than this, nor longer than the reconcile period. */
    static final Duration LONGEST = Duration.ofSeconds(30);

    private final long firstMillis;
    private final long longestMillis;
    private final DoubleSupplier random;

    /** @param random uniform in [0, 1): the jitter's draw, injected so that tests can fix it */
    TransientBackoff(Duration reconcilePeriod, DoubleSupplier random) {
        Duration longest = reconcilePeriod.compareTo(LONGEST) < 0 ? reconcilePeriod : LONGEST;
        this.firstMillis = FIRST.toMillis();
        this.longestMillis = Math.max(longest.toMillis(), firstMillis);
        this.random = random;
    }

    TransientBackoff(Duration reconcilePeriod) {
        this(reconcilePeriod, () -> java.util.concurrent.ThreadLocalRandom.current().nextDouble());
    }

    /** The longest wait, after enough failures in a row. */
    Duration longest() { return Duration.ofMillis(longestMillis); }

    @Override
    public RetryExecution initExecution() {
        return new Execution();
    }

    /** The delays of one primary's run of failures; JOSDK starts a new one after a cycle succeeds. */
    private final class Execution implements RetryExecution {
        private int attempts;

        @Override
        public synchronized Optional<Long> nextDelay() {
            double exponential = firstMillis * Math.pow(MULTIPLIER, Math.min(attempts, 62));
            long ceiling = (long) Math.min(exponential, longestMillis);
            attempts++;
            long half = ceiling / 2;
            return Optional.of(half + (long) (random.getAsDouble() * (ceiling - half)));
        }

        @Override
        public synchronized boolean isLastAttempt() { return false; }

        @Override
        public synchronized int getAttemptCount() { return attempts; }
    }
}
