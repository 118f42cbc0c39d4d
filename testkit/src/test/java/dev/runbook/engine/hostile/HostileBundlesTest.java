package dev.runbook.engine.hostile;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.containment.FirstLineSwitch;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import dev.runbook.testkit.scenario.Scenario;
import dev.runbook.testkit.scenario.ScenarioRunner;
import dev.runbook.testkit.scenario.ScenarioSuite;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;
import java.util.TimeZone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Every bundle of the hostile corpus is refused when it is compiled, at the file and line where its
 * route is written, and nothing of it runs: the marker its payload would create is not there, the
 * JVM's zone is unchanged. With the first-line checks off, the payloads that end do run, so each
 * bundle is a real attack and not a bundle refused for some other fault.
 */
class HostileBundlesTest {
    private TimeZone zone;

    static List<HostileBundle> corpus() {
        return HostileBundle.all();
    }

    static List<HostileBundle> observable() {
        return HostileBundle.all().stream().filter(HostileBundle::observable).toList();
    }

    @BeforeEach
    void rememberTheZone() {
        zone = TimeZone.getDefault();
    }

    @AfterEach
    void undoAnyPayload() {
        HostileBundle.all().forEach(b -> b.reset(zone));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void isRefusedWhereItsRouteIsWrittenAndNothingOfItRuns(HostileBundle bundle) {
        bundle.reset(zone);

        Throwable error = assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> catchThrowable(() -> BundleCompiler.compile(BundleLoader.load(bundle.directory()))));

        assertThat(error).as("compiling %s must be refused", bundle).isInstanceOf(InvalidInputException.class);
        Problem first = ((InvalidInputException) error).getProblems().get(0);
        assertThat(first.file() + ":" + first.line()).as(first.toString()).isEqualTo(bundle.refusedAt());
        assertThat(first.column()).as(first.toString()).isPositive();
        assertThat(first.message()).as(first.toString()).contains(bundle.mentions());
        assertThat(bundle.payloadRan()).as("the payload of %s must not have run", bundle).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("observable")
    void withTheFirstLineChecksOffItsPayloadRuns(HostileBundle bundle) {
        bundle.reset(zone);

        FirstLineSwitch.off(() -> catchThrowable(() -> {
            // A payload Drools evaluates while it builds runs here, even where the build then fails.
            CompiledBundle compiled = BundleCompiler.compile(BundleLoader.load(bundle.directory()));
            for (Scenario scenario : ScenarioSuite.read(bundle.directory(), List.of())) {
                catchThrowable(() -> new ScenarioRunner().run(compiled, scenario));
            }
        }));

        assertThat(bundle.payloadRan()).as("the payload of %s must run when nothing checks it", bundle).isTrue();
    }
}
