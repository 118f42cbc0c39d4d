package dev.runbook.instance.backup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * Reads what {@code barman-cloud-backup-show --format json} and {@code barman-cloud-backup-list
 * --format json} print (barman 3.4). Their times are Python's {@code ctime()}: no zone, in the zone
 * of the server the backup was taken from, which the caller passes.
 */
public final class BarmanJson {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** "Tue Dec  1 10:05:00 2026": ctime pads the day of the month with a space. */
    private static final DateTimeFormatter CTIME = DateTimeFormatter.ofPattern("EEE MMM d HH:mm:ss yyyy", Locale.ROOT);

    private BarmanJson() {
    }

    /** {@code {"SERVER": {backup...}}} from backup-show. */
    public static BackupInfo show(String output, ZoneId zone) {
        JsonNode root = read(output);
        Iterator<JsonNode> servers = root.elements();
        if (!servers.hasNext()) {
            throw new IllegalArgumentException("barman-cloud-backup-show printed no backup: " + output.strip());
        }
        return backup(servers.next(), zone);
    }

    /** {@code {"backups_list": [...]}} from backup-list, in the tool's order (oldest first). */
    public static List<BackupInfo> list(String output, ZoneId zone) {
        JsonNode list = read(output).path("backups_list");
        List<BackupInfo> backups = new ArrayList<>();
        list.forEach(b -> backups.add(backup(b, zone)));
        return backups;
    }

    static BackupInfo backup(JsonNode b, ZoneId zone) {
        return new BackupInfo(text(b, "backup_id"), text(b, "backup_name"), text(b, "status"), b.path("size").asLong(0),
                text(b, "begin_wal"), text(b, "end_wal"), time(text(b, "end_time"), zone));
    }

    static Instant time(String ctime, ZoneId zone) {
        if (ctime.isEmpty()) {
            return null;
        }
        try {
            return LocalDateTime.parse(ctime.replaceAll("\\s+", " "), CTIME).atZone(zone).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("barman printed the time '" + ctime + "', not in ctime() form", e);
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? "" : value.asText();
    }

    private static JsonNode read(String output) {
        try {
            // The tools may log a warning line before the JSON document.
            int start = output.indexOf('{');
            return JSON.readTree(start < 0 ? output : output.substring(start));
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("barman printed no JSON: " + output.strip(), e);
        }
    }
}
