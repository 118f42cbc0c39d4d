package dev.runbook.runbooks;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.idiom.IdiomLint;
import dev.runbook.engine.state.ObservationBuilder;
import dev.runbook.engine.state.StateFiles;
import dev.runbook.rules.action.SetStatus;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every bundle under runbooks/ compiles, and every sample that holds a primary resource plans without
 * problems. (Samples without one are fragments that scenarios combine with others.)
 */
class ShippedBundlesTest {
    private static final Instant NOW = Instant.parse("2026-11-30T09:00:00Z");
    private static final Path RUNBOOKS = Path.of("").toAbsolutePath();

    private static List<Path> bundles() throws IOException {
        try (Stream<Path> dirs = Files.list(RUNBOOKS)) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve("bundle.yaml"))).sorted().toList();
        }
    }

    private static List<Path> samples(Path bundle) throws IOException {
        Path dir = bundle.resolve("samples");
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    private static boolean holdsPrimary(CompiledBundle bundle, Path sample) {
        var kind = bundle.spec().primary().kind();
        return StateFiles.read(List.of(sample)).stream().anyMatch(o -> kind.matches(o.apiVersion(), o.kind()));
    }

    private static Decision plan(CompiledBundle bundle, Path sample) {
        var observation = ObservationBuilder.build(bundle.spec(), StateFiles.read(List.of(sample)), null, NOW, Map.of());
        return DecisionCycle.run(bundle, observation);
    }

    @Test
    void thereAreShippedBundles() throws IOException {
        assertThat(bundles()).extracting(p -> p.getFileName().toString()).contains("postgres-cluster");
    }

    @TestFactory
    Stream<DynamicTest> everySampleOfEveryBundlePlansCleanly() throws IOException {
        return bundles().stream().flatMap(bundleDir -> {
            CompiledBundle bundle = BundleCompiler.compile(BundleLoader.load(bundleDir));
            try {
                return samples(bundleDir).stream().filter(sample -> holdsPrimary(bundle, sample)).map(sample -> DynamicTest.dynamicTest(
                        bundleDir.getFileName() + "/samples/" + sample.getFileName(),
                        () -> assertThat(plan(bundle, sample).problems()).isEmpty()));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    /** What `runbook lint` warns about rules that do by hand what the framework does (docs/reference/idioms.md): none in a shipped bundle. */
    @TestFactory
    Stream<DynamicTest> noShippedRuleDoesByHandWhatTheFrameworkDoes() throws IOException {
        return bundles().stream().map(bundleDir -> DynamicTest.dynamicTest(bundleDir.getFileName().toString(), () -> {
            CompiledBundle bundle = BundleCompiler.compile(BundleLoader.load(bundleDir));
            assertThat(IdiomLint.check(bundle.source().filesUnder("rules/", ".drl"), bundle.spec())).extracting(Object::toString).isEmpty();
        }));
    }

    @Test
    void thePostgresFailoverSamplePromotesTheMostAdvancedReadyReplica() {
        Path bundleDir = RUNBOOKS.resolve("postgres-cluster");
        Decision decision = plan(BundleCompiler.compile(BundleLoader.load(bundleDir)), bundleDir.resolve("samples/primary-failed.yaml"));

        assertThat(decision.actions()).map(p -> p.action())
                .filteredOn(a -> a instanceof SetStatus s && s.getPath().equals("targetPrimary"))
                .singleElement().extracting(a -> ((SetStatus) a).getValue()).isEqualTo("pg-2");
        // Intent is recorded first: nothing is relabelled in the cycle that starts the failover.
        assertThat(decision.actions()).map(p -> p.action().getType()).doesNotContain("label");
    }

    @Test
    void onceTheTargetIsRecordedTheFailedPrimaryIsFenced() {
        Path bundleDir = RUNBOOKS.resolve("postgres-cluster");
        Decision decision = plan(BundleCompiler.compile(BundleLoader.load(bundleDir)), bundleDir.resolve("samples/failover-recorded.yaml"));

        assertThat(decision.actions()).map(p -> p.action().toMap())
                .filteredOn(form -> form.get("action").equals("label"))
                .singleElement().satisfies(form -> {
                    assertThat(form).containsEntry("key", "postgres.runbook.dev/role").containsEntry("value", "fenced");
                    assertThat(form.get("target")).asString().contains("pg-0");
                });
        assertThat(decision.actions()).map(p -> p.action().identity())
                .noneMatch(identity -> identity.contains("targetPrimary"));
    }
}
