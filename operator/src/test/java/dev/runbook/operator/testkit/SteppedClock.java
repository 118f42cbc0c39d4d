package dev.runbook.operator.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** The system clock, plus however far the test has moved it forward: for delays an IT does not wait out. */
public final class SteppedClock extends Clock {
    private volatile Duration ahead = Duration.ZERO;

    public void advance(Duration by) { ahead = ahead.plus(by); }

    @Override public Instant instant() { return Instant.now().plus(ahead); }
    @Override public ZoneId getZone() { return ZoneOffset.UTC; }
    @Override public Clock withZone(ZoneId zone) { throw new UnsupportedOperationException("UTC only"); }
}
