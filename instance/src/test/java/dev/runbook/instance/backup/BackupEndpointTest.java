package dev.runbook.instance.backup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runbook.instance.address.Address;
import dev.runbook.instance.address.Addresses;
import dev.runbook.instance.postgres.CommandFailed;
import dev.runbook.instance.probe.ProbeServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The endpoint on a real HTTP server, asked by the Job's real client. */
class BackupEndpointTest {
    private ProbeServer server;

    @TempDir
    Path dir;

    private HttpBackupSource serve(Optional<BackupEndpoint.Taker> taker) throws Exception {
        server = new ProbeServer(0, Clock.systemUTC(), Duration.ofMinutes(1), Duration.ofMinutes(1));
        Path token = Files.writeString(dir.resolve("token"), "a-token\n");
        server.route("/backup", new BackupEndpoint(taker));
        int port = server.port();
        return new HttpBackupSource(new Addresses() {
            @Override
            public Address of(String pod) {
                return new Address("127.0.0.1", 5432);
            }

            @Override
            public Address httpOf(String pod) {
                return new Address("127.0.0.1", port);
            }
        }, token);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void answersWithWhatTheBackupIs() throws Exception {
        BackupInfo info = new BackupInfo("20261201T100000", "pg-backup-1", "DONE", 4096, "000000010000000000000004",
                "000000010000000000000005", Instant.parse("2026-12-01T10:00:07Z"));
        HttpBackupSource source = serve(Optional.of(name -> {
            assertThat(name).isEqualTo("pg-backup-1");
            return info;
        }));
        assertThat(source.backup("pg-1", "pg-backup-1")).isEqualTo(info);
    }

    @Test
    void aFailureComesBackWithTheToolsMessage() throws Exception {
        HttpBackupSource source = serve(Optional.of(name -> {
            throw new CommandFailed("barman-cloud-backup exited with 1: ERROR: Bucket backups does not exist");
        }));
        Assertions.assertThatThrownBy(() -> source.backup("pg-1", "pg-backup-1"))
                .hasMessage("pg-1 answered 500: barman-cloud-backup exited with 1: ERROR: Bucket backups does not exist");
    }

    @Test
    void withoutAStoreOrWithABadNameNothingIsTaken() throws Exception {
        Assertions.assertThatThrownBy(() -> serve(Optional.empty()).backup("pg-1", "pg-backup-1"))
                .hasMessageContaining("409").hasMessageContaining("BACKUP_DESTINATION_PATH is not set");
        server.close();
        Assertions.assertThatThrownBy(() -> serve(Optional.of(name -> {
            throw new AssertionError("not to be called");
        })).backup("pg-1", "Bad Name; rm -rf /")).hasMessageContaining("400").hasMessageContaining("not a Kubernetes object name");
    }
}
