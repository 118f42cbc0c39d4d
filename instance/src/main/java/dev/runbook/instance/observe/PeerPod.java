package dev.runbook.instance.observe;

/**
 * Another instance's pod as this instance sees it: the current primary's, when this instance is to
 * follow it or take over from it.
 */
public record PeerPod(String name, boolean exists, boolean terminating, boolean ready,
                      String roleLabel, String reportedRole, String reportedLsn) {

    public static PeerPod absent(String name) {
        return new PeerPod(name, false, false, false, "", "", "");
    }

    /** It runs as primary and can be cloned from or followed. */
    public boolean servesAsPrimary() {
        return exists && !terminating && "primary".equals(reportedRole);
    }
}
