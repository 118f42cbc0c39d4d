package dev.runbook.instance.backup;

import java.time.Instant;

/**
 * One base backup in the store, as Barman Cloud describes it: its id (a timestamp such as
 * {@code 20261201T100500}), the name it was given ({@code -n}, "" when none), its status (DONE when
 * complete), its size in bytes, the WAL range it needs and when it ended.
 */
public record BackupInfo(String id, String name, String status, long size, String beginWal, String endWal, Instant endTime) {

    public boolean done() {
        return "DONE".equals(status);
    }

    /** The name a user gave it, else its id. */
    public String label() {
        return name.isEmpty() ? id : name;
    }
}
