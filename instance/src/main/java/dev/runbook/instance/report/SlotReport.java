package dev.runbook.instance.report;

import dev.runbook.postgres.contract.PostgresContract;
import dev.runbook.instance.local.LocalState;
import dev.runbook.instance.observe.Observation;
import dev.runbook.instance.postgres.ReplicationRole;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the primary reports about the slots it keeps: {@code postgres.runbook.dev/slot-wal}, each
 * other instance with the WAL its slot holds back on the primary's volume, in bytes rounded down to
 * whole 16 MiB WAL segments (so that the annotation changes when a segment does, not with every
 * write): {@code pg-1=0,pg-2=1073741824}. The runbook's {@code ReplicationSlots} condition reads it.
 * Any other instance reports none.
 */
public final class SlotReport {
    private static final long SEGMENT = 16L * 1024 * 1024;

    private SlotReport() {}

    public static Map<String, String> annotations(Observation seen, LocalState local, boolean primary) {
        Map<String, String> report = new HashMap<>();
        if (!primary || local.slots().isEmpty()) {
            report.put(PostgresContract.SLOT_WAL, null);
            return report;
        }
        report.put(PostgresContract.SLOT_WAL, seen.instances().stream().filter(i -> local.slots().containsKey(ReplicationRole.slotOf(i)))
                .map(i -> i + "=" + (local.slots().get(ReplicationRole.slotOf(i)) / SEGMENT * SEGMENT))
                .collect(Collectors.joining(",")));
        return report;
    }
}
