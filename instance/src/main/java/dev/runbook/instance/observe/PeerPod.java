package dev.runbook.instance.observe;

import dev.runbook.postgres.contract.Role;
import java.time.Duration;

/**
 * Another instance's pod as this instance sees it: the current primary's, when this instance is to
 * follow it or take over from it. {@code leaseDuration} is the primary lease it last reported
 * ({@link Observation#LEASE_DURATION}), null when it reported none.
 */
public record PeerPod(String name, boolean exists, boolean terminating, boolean ready,
                      String roleLabel, String reportedRole, String reportedLsn, Duration leaseDuration) {

    public PeerPod(String name, boolean exists, boolean terminating, boolean ready, String roleLabel, String reportedRole, String reportedLsn) {
        this(name, exists, terminating, ready, roleLabel, reportedRole, reportedLsn, null);
    }

    public static PeerPod absent(String name) {
        return new PeerPod(name, false, false, false, "", "", "");
    }

    /** It runs as primary and can be cloned from or followed. */
    public boolean servesAsPrimary() {
        return exists && !terminating && Role.PRIMARY.equals(reportedRole);
    }
}
