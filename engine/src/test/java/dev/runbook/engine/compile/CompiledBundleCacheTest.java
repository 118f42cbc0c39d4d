package dev.runbook.engine.compile;

import dev.runbook.engine.TestBundles;
import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.state.ObservationBuilder;
import dev.runbook.engine.state.StateFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CompiledBundleCacheTest {
    private static final Instant NOW = Instant.parse("2026-11-30T09:00:00Z");

    @TempDir
    Path cacheDir;

    private static BundleSource example() {
        return BundleLoader.load(TestBundles.directory("example"));
    }

    /** The plan and its explanation, as a reader of {@code runbook plan} sees them. */
    private static String explained(CompiledBundle bundle) {
        var objects = StateFiles.read(List.of(TestBundles.directory("example").resolve("samples/primary-failed.yaml")));
        Observation observation = ObservationBuilder.build(bundle.spec(), objects, null, NOW, Map.of());
        Decision decision = DecisionCycle.run(bundle, observation);
        return decision.actions().stream().map(PlannedAction::form).toList() + " | "
                + decision.firings().stream().map(f -> f.rule() + f.matched() + f.derived()).toList();
    }

    private List<Path> entries() throws IOException {
        try (Stream<Path> files = Files.list(cacheDir)) {
            return files.toList();
        }
    }

    /** A bundle without `declare` (every bundle `runbook new` writes) has no generated class loader store: it is stored all the same. */
    @Test
    void aBundleThatDeclaresNoTypeIsStoredAndReadBack() throws IOException {
        BundleSource reaching = BundleLoader.load(TestBundles.directory("reaching"));

        CompiledBundleCache.Loaded first = new CompiledBundleCache(cacheDir).load(reaching);
        CompiledBundleCache.Loaded second = new CompiledBundleCache(cacheDir).load(reaching);

        assertThat(first.fromCache()).isFalse();
        assertThat(entries()).hasSize(1);
        assertThat(second.fromCache()).isTrue();
        assertThat(second.bundle().ruleNames()).isEqualTo(first.bundle().ruleNames());
    }

    /** A cache that cannot be written makes every command compile again: it says so (it said nothing). */
    @Test
    void aCacheThatCannotBeWrittenIsAWarning() throws IOException {
        Path notADirectory = Files.writeString(cacheDir.resolve("a-file"), "not a directory\n");
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        java.io.PrintStream err = System.err;
        System.setErr(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
        CompiledBundleCache.Loaded loaded;
        try {
            loaded = new CompiledBundleCache(notADirectory).load(BundleLoader.load(TestBundles.directory("reaching")));
        } finally {
            System.setErr(err);
        }

        assertThat(loaded.bundle().name()).isEqualTo("reaching");
        assertThat(printed.toString(java.nio.charset.StandardCharsets.UTF_8)).contains("WARN",
                "could not store bundle reaching@", "in the compiled-bundle cache " + notADirectory, "each command compiles it again");
    }

    @Test
    void aBundleReadFromTheCacheDecidesExactlyAsACompiledOne() throws IOException {
        CompiledBundle compiled = new CompiledBundleCache(cacheDir).compile(example());
        assertThat(entries()).singleElement().satisfies(f -> assertThat(f.toString()).endsWith(".kbase"));

        CompiledBundle cached = new CompiledBundleCache(cacheDir).cached(example()).orElseThrow();

        assertThat(cached.kieBase()).isNotSameAs(compiled.kieBase());
        assertThat(cached.ruleNames()).isEqualTo(compiled.ruleNames());
        assertThat(cached.version()).isEqualTo(compiled.version());
        assertThat(cached.templates().names()).isEqualTo(compiled.templates().names());
        assertThat(explained(cached)).isEqualTo(explained(compiled)).contains("targetPrimary");
    }

    /** A cached bundle's KieBase is configured as a compiled one's: constraint jitting off (see docs/security.md). */
    @Test
    void aBundleReadFromTheCacheHasConstraintJittingOffLikeACompiledOne() {
        CompiledBundle compiled = new CompiledBundleCache(cacheDir).compile(example());
        CompiledBundle cached = new CompiledBundleCache(cacheDir).cached(example()).orElseThrow();

        for (CompiledBundle bundle : List.of(compiled, cached)) {
            var configuration = ((org.drools.kiesession.rulebase.InternalKnowledgeBase) bundle.kieBase()).getRuleBaseConfiguration();
            assertThat(configuration.getOption(org.kie.internal.conf.ConstraintJittingThresholdOption.KEY).getThreshold()).isEqualTo(-1);
        }
    }

    @Test
    void anyChangeToACompiledFileIsAnotherEntry() throws IOException {
        CompiledBundleCache cache = new CompiledBundleCache(cacheDir);
        cache.compile(example());
        Map<String, String> files = new HashMap<>(example().files());
        files.computeIfPresent("templates/config.yaml", (path, text) -> text + "\n# changed\n");

        cache.compile(new BundleSource("changed", files));

        assertThat(entries()).hasSize(2);
        assertThat(CompiledBundleCache.key(new BundleSource("changed", files))).isNotEqualTo(CompiledBundleCache.key(example()));
    }

    @Test
    void loadSaysWhetherTheBundleWasCompiledOrReadFromTheCache() throws IOException {
        CompiledBundleCache cache = new CompiledBundleCache(cacheDir);

        CompiledBundleCache.Loaded first = cache.load(example());
        CompiledBundleCache.Loaded second = cache.load(example());

        assertThat(first.fromCache()).isFalse();
        assertThat(second.fromCache()).isTrue();
        assertThat(explained(second.bundle())).isEqualTo(explained(first.bundle()));
        assertThat(entries()).hasSize(1);
    }

    @Test
    void anUnreadableEntryIsReplacedByACompile() throws IOException {
        CompiledBundleCache cache = new CompiledBundleCache(cacheDir);
        String expected = explained(cache.compile(example()));
        Path entry = entries().get(0);
        Files.write(entry, new byte[] {1, 2, 3});

        assertThat(explained(cache.compile(example()))).isEqualTo(expected);
        assertThat(Files.size(entry)).isGreaterThan(3);
        assertThat(cache.cached(example())).isPresent();
    }

    @Test
    void aBundleWithErrorsIsNeverStored() throws IOException {
        CompiledBundleCache cache = new CompiledBundleCache(cacheDir);
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> cache.compile(BundleLoader.load(TestBundles.directory("broken-syntax"))))
                    .isInstanceOf(InvalidInputException.class);
        }
        assertThat(Files.exists(cacheDir) ? entries() : List.of()).isEmpty();
    }

    @Test
    void commandsRunningAtOnceShareOneEntry() throws Exception {
        String expected = explained(BundleCompiler.compile(example()));
        ExecutorService threads = Executors.newFixedThreadPool(3);
        try {
            List<Callable<String>> commands = IntStream.range(0, 6)
                    .mapToObj(i -> (Callable<String>) () -> explained(new CompiledBundleCache(cacheDir).compile(example())))
                    .toList();
            for (Future<String> result : threads.invokeAll(commands)) assertThat(result.get()).isEqualTo(expected);
        } finally {
            threads.shutdownNow();
        }
        assertThat(entries()).singleElement().satisfies(f -> assertThat(f.toString()).endsWith(".kbase"));
    }
}
