package dev.runbook.operator.docs;

import dev.runbook.operator.testkit.ProjectFiles;
import dev.runbook.operator.testkit.TestCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The journeys of the docs, walked on a real cluster from the pages' own blocks ({@link Journey}): each in
 * a fresh copy of the project ({@link FreshClone}), in a shell with what a reader's has ({@link ReaderShell}:
 * {@code PATH}, {@code HOME}, and {@code KUBECONFIG} naming the cluster of {@code -Drunbook.it.kubeconfig}).
 * A page that drifts from the product fails here, at its page and line.
 *
 * <ol>
 *   <li>{@code tutorial} (docs/tutorial.md): {@code runbook new} to a Ready custom resource, and back;</li>
 *   <li>{@code install} (README.md): deploy/'s manifests in the listed order, then a PostgresCluster to
 *       Healthy; the operator runs from the image as the Deployment says, by {@code testenv/image-node}
 *       (the image archive of {@code -Drunbook.journeys.image}, deploy/build-image's), since no container
 *       runs on testenv's kwok node;</li>
 *   <li>{@code ship} (README.md): the unmodified bundle packed and applied to that install, and active;</li>
 *   <li>{@code broken-rule} (docs/shipping.md): a rule with a syntax error, refused at apply time with its
 *       file and line first;</li>
 *   <li>{@code local} (docs/install.md): the installed operator scaled down, {@code runbook run} from the
 *       clone under the installed policy and namespace, as you and then as its ServiceAccount, acting on the
 *       installed cluster; the installed operator scaled up again.</li>
 * </ol>
 *
 * CI runs them after the integration tests on testenv's control plane ({@code .ci/run}); each one's time
 * goes to {@code target/journeys/summary.txt}. Not part of {@code mvn verify}: run them with
 * {@code -Dtest=JourneysE2E}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class JourneysE2E {
    static final String IMAGE_PROPERTY = "runbook.journeys.image";
    private static final Path ROOT = ProjectFiles.root();
    private static final Path WORK = ROOT.resolve("operator/target/journeys");
    private static ImageNode node;

    @BeforeAll
    static void cleanSlate() throws IOException {
        assertThat(TestCluster.kubeconfig()).as("the journeys need a real cluster: -D" + TestCluster.KUBECONFIG_PROPERTY + "=FILE")
                .isNotBlank();
        Files.createDirectories(WORK);
        Files.deleteIfExists(WORK.resolve("summary.txt"));
    }

    @AfterAll
    static void stopTheNode() throws InterruptedException {
        if (node != null) node.close();
    }

    @Test
    @Order(1)
    void tutorial() throws Exception {
        walk("tutorial");
    }

    @Test
    @Order(2)
    void install() throws Exception {
        String archive = System.getProperty(IMAGE_PROPERTY, "");
        assertThat(archive).as("the install journey runs the operator's image: -D" + IMAGE_PROPERTY
                + "=ARCHIVE, the archive deploy/build-image prints").isNotBlank();
        node = ImageNode.start(ROOT, Path.of(archive), WORK.resolve("image-node"), environment());
        walk("install");
    }

    @Test
    @Order(3)
    void ship() throws Exception {
        walk("ship");
    }

    @Test
    @Order(4)
    void brokenRule() throws Exception {
        walk("broken-rule");
    }

    @Test
    @Order(5)
    void local() throws Exception {
        walk("local");
    }

    private static void walk(String name) throws Exception {
        Journey journey = Journey.read(ROOT, name);
        Path dir = WORK.resolve(name);
        delete(dir);
        Path clone = FreshClone.of(ROOT, dir.resolve("clone"));
        long started = System.nanoTime();
        String outcome = "FAIL";
        try (ReaderShell shell = new ReaderShell(clone, environment(), dir.resolve("outputs"))) {
            new DocsWalker(shell, clone).walk(journey);
            outcome = "PASS";
        } finally {
            String line = String.format(Locale.ROOT, "%s %s: %d steps in %.1f s%n", outcome, name, journey.steps().size(),
                    (System.nanoTime() - started) / 1e9);
            System.out.print(line);
            Files.writeString(WORK.resolve("summary.txt"), line, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        }
    }

    /** What a reader's shell has: their PATH and HOME, and the cluster in KUBECONFIG. */
    static Map<String, String> environment() {
        Map<String, String> environment = new LinkedHashMap<>();
        for (String name : List.of("PATH", "HOME", "USER", "LANG", "JAVA_HOME", "TMPDIR")) {
            String value = System.getenv(name);
            if (value != null) environment.put(name, value);
        }
        environment.put("KUBECONFIG", Path.of(TestCluster.kubeconfig()).toAbsolutePath().toString());
        return environment;
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (var paths = Files.walk(dir)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(path);
        }
    }

}
