package dev.runbook.operator.deploy;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator's runtime classpath, as Maven resolves it for this module (written by the
 * dependency plugin before the tests run, see operator/pom.xml) and as the image carries it: no
 * sandbox API server (fabric8's mock server, mockwebserver, Vert.x web) and no Drools
 * executable-model compiler, which the classic DRL compile path never loads.
 */
class RuntimeClasspathTest {
    private static List<String> jars;

    @BeforeAll
    static void readTheRuntimeClasspath() throws IOException {
        String file = System.getProperty("runbook.runtime.classpath");
        assertThat(file).as("system property runbook.runtime.classpath (set by operator/pom.xml's surefire configuration)").isNotBlank();
        jars = Arrays.stream(Files.readString(Path.of(file)).trim().split(File.pathSeparator))
                .map(RuntimeClasspathTest::name)
                .toList();
    }

    /** A jar's file name; a module of this build, which the reactor gives as its classes directory, by its directory name. */
    private static String name(String entry) {
        Path path = Path.of(entry);
        return path.endsWith(Path.of("target", "classes")) ? path.getParent().getParent().getFileName() + "/" : path.getFileName().toString();
    }

    @Test
    void holdsTheOperatorsOwnLibraries() {
        // So that an empty or unrelated file cannot pass the checks below.
        assertThat(jars).anyMatch(jar -> jar.startsWith("runbook-engine-") || jar.equals("engine/"))
                .anyMatch(jar -> jar.startsWith("operator-framework-core-"))
                .anyMatch(jar -> jar.startsWith("kubernetes-client-"))
                .anyMatch(jar -> jar.startsWith("kubernetes-httpclient-vertx-"))
                .anyMatch(jar -> jar.startsWith("drools-compiler-"))
                .anyMatch(jar -> jar.startsWith("drools-engine-classic-"));
    }

    @Test
    void carriesTheFunctionsOfTheShippedPostgresBundle() {
        // Its rules call Lsn, Backups and ObjectStores: the image's class path, and so its bundle workers', must hold them.
        assertThat(jars).anyMatch(jar -> jar.startsWith("runbook-postgres-vocabulary-") || jar.equals("postgres-vocabulary/"))
                .anyMatch(jar -> jar.startsWith("runbook-postgres-contract-") || jar.equals("postgres-contract/"));
    }

    @Test
    void carriesNoMockApiServer() {
        assertThat(jars).noneMatch(jar -> jar.startsWith("kubernetes-server-mock-"))
                .noneMatch(jar -> jar.startsWith("mockwebserver-"))
                .noneMatch(jar -> jar.startsWith("runbook-embedded-apiserver-") || jar.equals("embedded-apiserver/"))
                .noneMatch(jar -> jar.matches("vertx-web-\\d.*"))
                .noneMatch(jar -> jar.startsWith("vertx-bridge-common-"))
                .noneMatch(jar -> jar.startsWith("awaitility-"));
    }

    @Test
    void carriesNoExecutableModelCompiler() {
        assertThat(jars).noneMatch(jar -> jar.startsWith("drools-model-"))
                .noneMatch(jar -> jar.startsWith("drools-canonical-model-"))
                .noneMatch(jar -> jar.matches("drools-engine-\\d.*"));
    }
}
