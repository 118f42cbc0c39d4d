package dev.runbook.postgres.vocabulary;

import dev.runbook.rules.function.Quantities;

import java.util.ArrayList;
import java.util.List;

/**
 * The primary's report of the WAL its replication slots hold back (annotation
 * {@code postgres.runbook.dev/slot-wal}: {@code NAME=BYTES} per other instance, comma-separated), read
 * for the ReplicationSlots condition. A damaged entry is named, never fatal to the cycle: the report
 * is the instance's word.
 */
public final class SlotWal {

    private SlotWal() {
    }

    /** The entries that are not {@code NAME=BYTES}, trimmed, in the report's order; an empty report has none. */
    public static List<String> unreadable(String report) {
        List<String> unreadable = new ArrayList<>();
        for (String entry : entries(report)) {
            if (held(entry) == null) unreadable.add(entry.trim());
        }
        return unreadable;
    }

    /** {@code NAME holds BYTES bytes} for each readable entry that holds more than {@code limitBytes}, in the report's order. */
    public static List<String> over(String report, long limitBytes) {
        List<String> over = new ArrayList<>();
        for (String entry : entries(report)) {
            String held = held(entry);
            if (held != null && Quantities.bytes(held) > limitBytes) over.add(entry.substring(0, entry.indexOf('=')) + " holds " + held + " bytes");
        }
        return over;
    }

    /** The entries of the report, blank ones (an empty report: no other instance has a slot yet) left out. */
    private static List<String> entries(String report) {
        List<String> entries = new ArrayList<>();
        for (String entry : report == null ? new String[0] : report.split(",")) {
            if (!entry.isBlank()) entries.add(entry);
        }
        return entries;
    }

    /** The BYTES of a {@code NAME=BYTES} entry, trimmed; null when the entry is not of that form. */
    private static String held(String entry) {
        int eq = entry.indexOf('=');
        String held = eq > 0 ? entry.substring(eq + 1).trim() : "";
        return eq <= 0 || Quantities.bytesProblem(held) != null ? null : held;
    }
}
