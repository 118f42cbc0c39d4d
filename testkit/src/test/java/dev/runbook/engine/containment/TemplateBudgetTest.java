package dev.runbook.engine.containment;

import dev.runbook.engine.TestBundles;
import dev.runbook.engine.policy.Policy;
import dev.runbook.engine.policy.PolicyParser;
import dev.runbook.testkit.scenario.CycleTester;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Templates are a bundle's code too: they render within the cycle's deadline and memory budget, and
 * a template that oversteps them is stopped and named, with the rule that applied it. Before, a
 * template rendered outside every budget: asking for more memory than the JVM has stopped the whole
 * command (plan, test) with an OutOfMemoryError.
 */
class TemplateBudgetTest {
    private static final Path STORE = TestBundles.directory("contained/loop-in-consequence").resolveSibling("store.yaml");
    private static final String APPLIED = "template config.yaml (applied by rule 'Apply the configuration')";

    @Test
    void aTemplateThatAllocatesMoreThanTheCycleMayIsStoppedAndNamed() {
        Policy policy = PolicyParser.parse("policy.yaml", "limits: {cycleMemoryMiB: 64}\n");
        Throwable failure = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> catchThrowable(
                () -> CycleTester.of(TestBundles.compiled("contained/template-repeats-a-string")).given(STORE).fire(policy)));
        assertThat(failure).isInstanceOf(RuleMemoryExceededException.class)
                .hasMessageStartingWith(APPLIED + " exceeded the memory a cycle may use");
        assertThat(((RuleContainmentException) failure).template()).isEqualTo("config.yaml");
        assertThat(((RuleContainmentException) failure).rule()).isEqualTo("Apply the configuration");
    }

    @Test
    void aTemplateThatAsksForMoreMemoryThanTheJvmHasIsStoppedAndNamed() {
        Throwable failure = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> catchThrowable(
                () -> CycleTester.of(TestBundles.compiled("contained/template-asks-too-much")).given(STORE).fire()));
        assertThat(failure).isInstanceOf(RuleMemoryExceededException.class)
                .hasMessageStartingWith(APPLIED + " exceeded the memory a cycle may use: the JVM ran out of memory");
    }

    @Test
    void loopsWithinLoopsInATemplateStopAtTheCyclesDeadline() {
        // The loops allocate as they go: on a fast machine they would reach the default memory budget before
        // the deadline. With a budget they cannot reach, only the deadline stops them.
        Policy policy = PolicyParser.parse("policy.yaml", "limits: {cycleMemoryMiB: 1048576}\n");
        Throwable failure = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> catchThrowable(
                () -> CycleTester.of(TestBundles.compiled("contained/template-nests-loops")).given(STORE).fire(policy)));
        assertThat(failure).isInstanceOf(RuleDeadlineExceededException.class)
                .hasMessageStartingWith(APPLIED + " exceeded its deadline")
                .hasMessageContaining("(limits.cycleDeadline)");
    }
}
