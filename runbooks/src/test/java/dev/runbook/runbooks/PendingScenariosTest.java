package dev.runbook.runbooks;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.testkit.invariant.Invariants;
import dev.runbook.testkit.scenario.Scenario;
import dev.runbook.testkit.scenario.ScenarioRunner;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The scenarios under a bundle's {@code explored/} are failures the explorer found (and drills written
 * for them) that today's rules do not pass yet. Each must still fail; once one passes, this test says
 * so, and it belongs under {@code tests/} with the others (docs/testing.md#exploring).
 */
class PendingScenariosTest {
    private static final Path RUNBOOKS = Path.of("").toAbsolutePath();

    @TestFactory
    Stream<DynamicTest> everyPendingScenarioStillFails() throws IOException {
        List<Path> bundles;
        try (Stream<Path> dirs = Files.list(RUNBOOKS)) {
            bundles = dirs.filter(d -> Files.isDirectory(d.resolve("explored"))).sorted().toList();
        }
        return bundles.stream().flatMap(bundle -> {
            CompiledBundle compiled = BundleCompiler.compile(BundleLoader.load(bundle));
            ScenarioRunner runner = new ScenarioRunner(Invariants.load(bundle));
            List<Path> files;
            try (Stream<Path> paths = Files.list(bundle.resolve("explored"))) {
                files = paths.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return files.stream().flatMap(file -> new dev.runbook.testkit.scenario.ScenarioParser(bundle).parse(file).stream())
                    .map((Scenario scenario) -> DynamicTest.dynamicTest(bundle.getFileName() + "/" + scenario.displayName(), () -> {
                        if (runner.run(compiled, scenario).passed()) {
                            throw new AssertionError(scenario.displayName() + " passes now: move it from explored/ to tests/");
                        }
                    }));
        });
    }
}
