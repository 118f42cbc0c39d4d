package dev.runbook.instance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runbook.instance.config.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * deploy/image/postgres/config.json, the configuration deploy/build-postgres-image gives the database
 * image, agrees with the StatefulSet that runs it, the instance manager's defaults and the packages
 * the image is unpacked from. (deploy/check-image --postgres checks the built image against that file.)
 */
class DatabaseImageConfigTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private final JsonNode config = read().get("config");
    private final String template = readString("runbooks/postgres-cluster/templates/statefulset.yaml");

    @Test
    void theEntrypointIsTheCommandTheStatefulSetRuns() {
        assertThat(config.get("Entrypoint")).hasSize(1);
        String entrypoint = config.get("Entrypoint").get(0).asText();
        assertThat(entrypoint).isEqualTo("/opt/runbook/instance-manager");
        assertThat(template).contains("command: [" + entrypoint + "]");
        assertThat(readString("deploy/build-postgres-image")).contains("layers/instance" + entrypoint);
    }

    @Test
    void theExposedPortsAreTheInstanceManagersDefaultsAndTheStatefulSetsContainerPorts() {
        Settings settings = Settings.fromEnvironment(Map.of(Settings.PGDATA, "/var/lib/postgresql/data/pgdata",
                Settings.POD_NAME, "pg-0", Settings.POD_NAMESPACE, "db", Settings.CLUSTER_NAME, "pg", Settings.PASSWORD, "x"));
        List<String> exposed = new ArrayList<>();
        config.get("ExposedPorts").fieldNames().forEachRemaining(exposed::add);
        assertThat(exposed).containsExactlyInAnyOrder(settings.port() + "/tcp", settings.httpPort() + "/tcp");
        assertThat(template).contains("containerPort: " + settings.port() + "}").contains("containerPort: " + settings.httpPort() + "}");
    }

    @Test
    void pgBinIsTheMajorVersionThePackagesInstall() {
        Map<String, String> env = new HashMap<>();
        config.get("Env").forEach(e -> env.put(e.asText().split("=", 2)[0], e.asText().split("=", 2)[1]));
        List<String> packages = readString("deploy/image/postgres/packages").lines()
                .filter(l -> l.startsWith("postgresql-")).toList();
        assertThat(packages).as("deploy/image/postgres/packages names one postgresql-N server package").hasSize(1);
        String major = packages.get(0).substring("postgresql-".length()).trim();
        assertThat(env.get(Settings.PG_BIN)).isEqualTo("/usr/lib/postgresql/" + major + "/bin");
        assertThat(env.get("PATH")).startsWith(env.get(Settings.PG_BIN) + ":");
    }

    @Test
    void itRunsAsTheNumericNonRootPostgresUserTheBuildWrites() {
        String user = config.get("User").asText();
        assertThat(user).as("a numeric uid:gid, so runAsNonRoot can verify it").matches("[1-9][0-9]*:[0-9]+");
        assertThat(readString("deploy/build-postgres-image")).contains("postgres:x:" + user + ":");
    }

    private static JsonNode read() {
        try {
            return new ObjectMapper().readTree(ROOT.resolve("deploy/image/postgres/config.json").toFile());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String readString(String path) {
        try {
            return Files.readString(ROOT.resolve(path));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
