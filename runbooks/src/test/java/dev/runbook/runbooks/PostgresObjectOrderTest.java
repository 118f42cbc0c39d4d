package dev.runbook.runbooks;

import dev.runbook.testkit.scenario.CycleTester;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The order in which a postgres-cluster plan applies a cluster's objects (rules/bootstrap.drl's
 * salience): the ConfigMap the pods read, then what they run as (ServiceAccount, Role, RoleBinding: a
 * pod naming a missing ServiceAccount is refused), then the StatefulSet, then the Services, whatever else the
 * cycle decides. Scenario tests match actions in any order, so the order is checked here, on every
 * sample whose plan applies these objects.
 */
class PostgresObjectOrderTest {
    private static final Path BUNDLE = Path.of("postgres-cluster");
    private static final CycleTester CYCLE = CycleTester.of(BUNDLE);

    @Test
    void aNewClusterGetsItsConfigMapThenItsAccountThenItsStatefulSetThenItsServices() {
        List<String> applied = applied(CYCLE.given(BUNDLE.resolve("samples/cluster.yaml")).at("2026-11-30T09:00:00Z").fire());
        assertThat(applied).containsExactly("ConfigMap pg-config", "ServiceAccount pg-instance", "Role pg-instance",
                "RoleBinding pg-instance", "StatefulSet pg",
                "Service pg-instances", "Service pg-rw", "Service pg-ro");
    }

    @TestFactory
    Stream<DynamicTest> everySampleAppliesTheObjectsInThatOrder() throws IOException {
        List<Path> samples;
        try (Stream<Path> files = Files.list(BUNDLE.resolve("samples"))) {
            samples = files.filter(f -> f.toString().endsWith(".yaml") && holdsACluster(f)).sorted().toList();
        }
        assertThat(samples).hasSizeGreaterThan(10);
        return samples.stream().map(sample -> DynamicTest.dynamicTest(sample.getFileName().toString(), () -> {
            List<String> kinds = applied(CYCLE.given(sample).at("2026-11-30T09:00:00Z").fire()).stream()
                    .map(a -> a.substring(0, a.indexOf(' ')))
                    .filter(k -> ORDER.contains(k))
                    .toList();
            List<String> sorted = new ArrayList<>(kinds);
            sorted.sort((a, b) -> rank(a) - rank(b));
            assertThat(kinds).as("the objects %s applies, in plan order", sample).isEqualTo(sorted);
        }));
    }

    /** A sample that holds the primary (the others are pods or objects other samples add to). */
    private static boolean holdsACluster(Path sample) {
        try {
            return Files.readString(sample).contains("kind: PostgresCluster");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final List<String> ORDER = List.of("ConfigMap", "ServiceAccount", "Role", "RoleBinding", "StatefulSet", "Service");

    private static int rank(String kind) {
        return ORDER.indexOf(kind);
    }

    @SuppressWarnings("unchecked")
    private static List<String> applied(CycleTester.Fired fired) {
        return fired.actions().stream()
                .filter(a -> "apply".equals(a.get("action")))
                .map(a -> (Map<String, Object>) a.get("target"))
                .map(t -> t.get("kind") + " " + t.get("name"))
                .toList();
    }
}
