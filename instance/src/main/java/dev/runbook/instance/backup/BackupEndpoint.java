package dev.runbook.instance.backup;

import dev.runbook.postgres.contract.Lsn;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.runbook.instance.address.Address;
import dev.runbook.instance.postgres.Sql;
import dev.runbook.instance.probe.JsonAnswer;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /backup {"name": "..."}} on the instance's HTTP port: a base backup of this instance's
 * server with {@code barman-cloud-backup -n NAME}, answered (200) with what
 * {@code barman-cloud-backup-show} then says, as {@link #toJson}. One at a time (409 while one runs);
 * 409 when the pod names no store; 500 with the tool's message when it fails.
 */
public final class BackupEndpoint implements HttpHandler {
    private static final Logger LOG = LoggerFactory.getLogger(BackupEndpoint.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Takes one backup and says what it is; the endpoint's only dependency, so it is tested without a server. */
    public interface Taker {
        BackupInfo take(String name);
    }

    private final Optional<Taker> taker;
    private final ReentrantLock oneAtATime = new ReentrantLock();

    public BackupEndpoint(Optional<Taker> taker) {
        this.taker = taker;
    }

    /**
     * The production taker: barman-cloud-backup over the local Unix socket, then barman-cloud-backup-show.
     * On a standby ({@code primary} gives the primary it follows), a CHECKPOINT on the primary first,
     * replayed here before the backup starts, so that the backup begins at a fresh restart point (and
     * retention can free the WAL before it); afterwards the primary's current WAL file is ended, so
     * that the last WAL file the backup needs is archived now rather than when it fills up.
     */
    public static Taker barman(ObjectStore store, BarmanCommands barman, Sql sql, String socketDir, int port, String user, Path dataDir,
                               Supplier<Optional<Address>> primary) {
        return name -> {
            Optional<Address> upstream = standbyOf(sql, primary);
            upstream.ifPresent(address -> freshRestartPoint(sql, address, name));
            barman.backup(store, name, socketDir, port, user);
            upstream.ifPresent(address -> {
                try {
                    LOG.info("backup {} was taken on a standby: WAL file {} ended on the primary at {}", name, sql.switchWal(address), address);
                } catch (SQLException e) {
                    LOG.warn("backup {}: could not end the primary's WAL file ({}); it is archived when full or after archive_timeout",
                            name, e.getMessage());
                }
            });
            BackupInfo info;
            try {
                info = barman.show(store, name, sql.timeZone());
            } catch (SQLException e) {
                throw new IllegalStateException("the backup " + name + " is taken, but the server's time zone could not be read: " + e.getMessage(), e);
            }
            // barman-cli-cloud 3.4 records no size: the data directory's files it copied (uncompressed tar) are what the backup holds.
            return info.size() > 0 ? info : new BackupInfo(info.id(), info.name(), info.status(), DataDirectorySize.of(dataDir),
                    info.beginWal(), info.endWal(), info.endTime());
        };
    }

    private static Optional<Address> standbyOf(Sql sql, Supplier<Optional<Address>> primary) {
        try {
            return sql.inRecovery() ? primary.get() : Optional.empty();
        } catch (SQLException e) {
            throw new IllegalStateException("the local server does not answer: " + e.getMessage(), e);
        }
    }

    private static void freshRestartPoint(Sql sql, Address primary, String name) {
        try {
            long checkpointed = Lsn.parse(sql.checkpoint(primary));
            for (int i = 0; i < 60 && replayedBefore(sql, checkpointed); i++) {
                Thread.sleep(500);
            }
        } catch (SQLException | IllegalArgumentException e) { // no answer, or a position that cannot be read
            LOG.warn("backup {}: no CHECKPOINT on the primary at {} ({}); the backup starts at the last restart point", name, primary, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether the standby has not yet replayed up to the position; one it cannot read is not there yet. */
    private static boolean replayedBefore(Sql sql, long position) throws SQLException {
        OptionalLong replayed = Lsn.read(sql.local().lsn());
        return replayed.isEmpty() || replayed.getAsLong() < position;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"POST".equals(exchange.getRequestMethod())) {
                answer(exchange, 405, error("use POST /backup {\"name\": \"...\"}"));
                return;
            }
            if (taker.isEmpty()) {
                answer(exchange, 409, error("this instance has no object store: BACKUP_DESTINATION_PATH is not set in its pod"
                        + " (spec.backup.objectStore; pods created before it was set keep their environment until recreated)"));
                return;
            }
            String name;
            try {
                JsonNode body = JSON.readTree(exchange.getRequestBody());
                name = body == null ? "" : body.path("name").asText("");
            } catch (IOException e) {
                answer(exchange, 400, error("the body is not JSON: " + e.getMessage()));
                return;
            }
            if (!name.matches("[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?")) {
                answer(exchange, 400, error("the backup's name '" + name + "' is not a Kubernetes object name (lower case letters, digits, '-', '.')"));
                return;
            }
            if (!oneAtATime.tryLock()) {
                answer(exchange, 409, error("another backup of this instance is running; try again when it ends"));
                return;
            }
            try {
                LOG.info("backup {}: starting", name);
                BackupInfo info = taker.get().take(name);
                LOG.info("backup {}: done, id {}, {} bytes, WAL {} to {}", name, info.id(), info.size(), info.beginWal(), info.endWal());
                answer(exchange, 200, toJson(info));
            } catch (RuntimeException e) {
                LOG.warn("backup {} failed: {}", name, e.getMessage());
                answer(exchange, 500, error(e.getMessage()));
            } finally {
                oneAtATime.unlock();
            }
        }
    }

    public static String toJson(BackupInfo info) {
        ObjectNode node = JSON.createObjectNode();
        node.put("id", info.id()).put("name", info.name()).put("status", info.status()).put("size", info.size())
                .put("beginWal", info.beginWal()).put("endWal", info.endWal())
                .put("endTime", info.endTime() == null ? "" : info.endTime().toString());
        return node.toString();
    }

    public static BackupInfo fromJson(String text) throws IOException {
        JsonNode node = JSON.readTree(text);
        String end = node.path("endTime").asText("");
        return new BackupInfo(node.path("id").asText(""), node.path("name").asText(""), node.path("status").asText(""),
                node.path("size").asLong(0), node.path("beginWal").asText(""), node.path("endWal").asText(""),
                end.isEmpty() ? null : java.time.Instant.parse(end));
    }

    static String error(String message) {
        return JsonAnswer.error(message);
    }

    private static void answer(HttpExchange exchange, int status, String json) throws IOException {
        JsonAnswer.send(exchange, status, json);
    }
}
