package dev.runbook.runbooks;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.testkit.invariant.Invariants;
import dev.runbook.testkit.scenario.Scenario;
import dev.runbook.testkit.scenario.ScenarioResult;
import dev.runbook.testkit.scenario.ScenarioRunner;
import dev.runbook.testkit.scenario.ScenarioSuite;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Every scenario of every shipped bundle is a test, named by bundle, file and scenario. */
class BundleScenariosTest {
    private static final Path RUNBOOKS = Path.of("").toAbsolutePath();

    @TestFactory
    Stream<DynamicContainer> everyScenarioOfEveryBundle() throws IOException {
        List<Path> bundles;
        try (Stream<Path> dirs = Files.list(RUNBOOKS)) {
            bundles = dirs.filter(d -> Files.isRegularFile(d.resolve("bundle.yaml"))).sorted().toList();
        }
        return bundles.stream().map(bundle -> {
            CompiledBundle compiled = BundleCompiler.compile(BundleLoader.load(bundle));
            List<Scenario> scenarios = ScenarioSuite.read(bundle, List.of());
            ScenarioRunner runner = new ScenarioRunner(Invariants.load(bundle));
            return DynamicContainer.dynamicContainer(bundle.getFileName().toString(), scenarios.stream().map(scenario ->
                    DynamicTest.dynamicTest(scenario.displayName(), () -> {
                        ScenarioResult result = runner.run(compiled, scenario);
                        if (!result.passed()) throw new AssertionError(String.join("\n", result.failures()));
                    })));
        });
    }
}
