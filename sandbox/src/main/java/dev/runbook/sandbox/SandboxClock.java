package dev.runbook.sandbox;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The clock the sandbox's operator and its simulated controllers share: the system clock, plus however
 * far the sandbox has moved it forward, so that a failover delay passes without anyone waiting for it.
 * It never goes back.
 */
public final class SandboxClock extends Clock {
    private volatile Duration ahead = Duration.ZERO;

    public synchronized void advance(Duration by) {
        if (by.isNegative()) throw new IllegalArgumentException("time does not go back: " + by);
        ahead = ahead.plus(by);
    }

    /** How far the clock has been moved ahead of the system clock. */
    public Duration ahead() { return ahead; }

    @Override public Instant instant() { return Instant.now().plus(ahead); }
    @Override public ZoneId getZone() { return ZoneOffset.UTC; }
    @Override public Clock withZone(ZoneId zone) { throw new UnsupportedOperationException("UTC only"); }
}
