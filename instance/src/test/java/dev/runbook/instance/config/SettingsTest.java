package dev.runbook.instance.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SettingsTest {
    private static final Map<String, String> POD = Map.of("POD_NAME", "pg-0", "POD_NAMESPACE", "db", "CLUSTER_NAME", "pg",
            "PGDATA", "/var/lib/postgresql/data/pgdata", "POSTGRES_PASSWORD", "s3cret-value");

    @Test
    void defaultsForAPod() {
        Settings s = Settings.fromEnvironment(POD);
        assertThat(s.port()).isEqualTo(5432);
        assertThat(s.httpPort()).isEqualTo(8000);
        assertThat(s.runDir()).hasToString("/var/lib/postgresql/data/run");
        assertThat(s.addressFile()).isEmpty();
        assertThat(s.qualifiedClusterName()).isEqualTo("db/pg");
    }

    @Test
    void thePasswordIsNeverPrinted() {
        assertThat(Settings.fromEnvironment(POD).toString()).doesNotContain("s3cret-value");
    }

    @Test
    void aMissingVariableIsNamedWithWhereItComesFrom() {
        Map<String, String> noNamespace = new java.util.HashMap<>(POD);
        noNamespace.remove("POD_NAMESPACE");
        assertThatThrownBy(() -> Settings.fromEnvironment(noNamespace))
                .hasMessageContaining("POD_NAMESPACE is not set").hasMessageContaining("StatefulSet template");
        Map<String, String> badPort = new java.util.HashMap<>(POD);
        badPort.put("PGPORT", "five");
        assertThatThrownBy(() -> Settings.fromEnvironment(badPort)).hasMessageContaining("PGPORT is 'five'");
    }
}
