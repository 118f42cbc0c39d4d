package dev.runbook.operator.leader;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Locale;

/**
 * What the operator's per-replica Leases (presence, shard membership) share: a Lease name made from a
 * replica's identity, and whether a Lease is still held. "Held" compares the holder's last renewal with
 * this replica's clock, as fabric8's leader election does; so the replicas' clocks must agree to well
 * within a Lease's duration (NTP does, by orders of magnitude).
 */
public final class Leases {
    private Leases() {}

    /** {@code PREFIX + identity}, made a DNS name (lower case, [a-z0-9-], at most 63 characters). */
    public static String name(String prefix, String identity) {
        String name = prefix + identity.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
        name = name.length() > 63 ? name.substring(0, 63) : name;
        return name.replaceAll("-+$", "");
    }

    /**
     * Whether the Lease was renewed less than its duration ago ({@code fallback} when it names none).
     * A Lease with no holder (released) or never renewed is not held.
     */
    public static boolean held(Lease lease, Instant now, Duration fallback) {
        if (lease.getSpec() == null) return false;
        String holder = lease.getSpec().getHolderIdentity();
        ZonedDateTime renewed = lease.getSpec().getRenewTime();
        if (holder == null || holder.isBlank() || renewed == null) return false;
        Integer seconds = lease.getSpec().getLeaseDurationSeconds();
        Duration duration = seconds == null ? fallback : Duration.ofSeconds(seconds);
        return renewed.toInstant().plus(duration).isAfter(now);
    }
}
