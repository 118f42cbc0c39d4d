package dev.runbook.operator.deploy;

import dev.runbook.operator.command.OperatorCommand;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator's runtime classpath, as Maven resolves it for this module (written by the
 * dependency plugin before the tests run, see operator/pom.xml) and as the image carries it: no
 * sandbox API server (fabric8's mock server, mockwebserver, Vert.x web), no Drools
 * executable-model compiler, which the classic DRL compile path never loads, and no class of the
 * command line or the sandbox (docs/architecture.md#modules-by-what-ships).
 */
class RuntimeClasspathTest {
    /** The packages of what only a command runs: the cli module's and the sandbox module's. */
    static final List<String> COMMAND_ONLY_PACKAGES = List.of("dev/runbook/cli/", "dev/runbook/sandbox/");

    private static List<String> entries;
    private static List<String> jars;

    @BeforeAll
    static void readTheRuntimeClasspath() throws IOException {
        String file = System.getProperty("runbook.runtime.classpath");
        assertThat(file).as("system property runbook.runtime.classpath (set by operator/pom.xml's surefire configuration)").isNotBlank();
        entries = Arrays.asList(Files.readString(Path.of(file)).trim().split(File.pathSeparator));
        jars = entries.stream().map(RuntimeClasspathTest::name).toList();
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

    @Test
    void carriesNoCommandLineAndNoSandboxModule() {
        assertThat(jars).noneMatch(jar -> jar.startsWith("runbook-cli-") || jar.equals("cli/"))
                .noneMatch(jar -> jar.startsWith("runbook-sandbox-") || jar.equals("sandbox/"));
    }

    /**
     * Every class the image carries, the operator's own and those of each jar on its runtime classpath, read from
     * the jars themselves: none of a package that only a command runs, wherever it was put.
     */
    @Test
    void noClassOnTheImagesClassPathIsOneOnlyACommandRuns() throws IOException, URISyntaxException {
        List<Path> image = new ArrayList<>();
        image.add(Path.of(OperatorCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        entries.forEach(entry -> image.add(Path.of(entry)));
        List<String> classes = new ArrayList<>();
        for (Path entry : image) classes.addAll(classes(entry));
        assertThat(classes).as("classes read from %s", image)
                .contains("dev/runbook/operator/command/OperatorCommand.class", "dev/runbook/testkit/scenario/ScenarioRunner.class");
        assertThat(classes).as("classes of a package only a command runs (%s)", COMMAND_ONLY_PACKAGES)
                .noneMatch(name -> COMMAND_ONLY_PACKAGES.stream().anyMatch(name::startsWith));
    }

    /** The class files of a jar or of a classes directory (a module of this build, as the reactor gives it), by path. */
    static List<String> classes(Path entry) throws IOException {
        if (Files.isDirectory(entry)) {
            try (Stream<Path> files = Files.walk(entry)) {
                return files.filter(f -> f.toString().endsWith(".class"))
                        .map(f -> entry.relativize(f).toString().replace(File.separatorChar, '/')).toList();
            }
        }
        if (!entry.toString().endsWith(".jar")) return List.of();
        try (JarFile jar = new JarFile(entry.toFile())) {
            return jar.stream().map(e -> e.getName()).filter(name -> name.endsWith(".class")).toList();
        }
    }
}
