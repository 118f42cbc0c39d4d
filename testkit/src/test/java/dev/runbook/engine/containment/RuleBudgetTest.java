package dev.runbook.engine.containment;

import dev.runbook.engine.TestBundles;
import dev.runbook.engine.decide.RuleFailedException;
import dev.runbook.engine.policy.Policy;
import dev.runbook.engine.policy.PolicyParser;
import dev.runbook.testkit.scenario.CycleTester;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Rule code that runs away is stopped at its deadline, its memory budget or the stack, and the
 * cycle fails naming the rule. The bundles are under src/test/resources/bundles/contained (their
 * bundle.yaml asks for a cycle deadline of 300ms). The timeout only keeps a regression from hanging
 * the build: without containment these cycles never end.
 */
class RuleBudgetTest {
    private static final Path STORE = TestBundles.directory("contained/loop-in-consequence").resolveSibling("store.yaml");

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            loop-in-consequence      | Loop forever                              | exceeded its deadline
            loop-in-function         | Loop in a function                        | exceeded its deadline
            loop-in-constraint       | (a condition, in function spinning)       | exceeded its deadline
            loop-catching-exceptions | Catch and carry on                        | exceeded its deadline
            deep-recursion           | Recurse without end                       | overflowed the stack
            """)
    void runawayRuleCodeIsStoppedAndTheCycleFailsNamingTheRule(String bundle, String rule, String what) {
        Throwable failure = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> catchThrowable(
                () -> CycleTester.of(TestBundles.compiled("contained/" + bundle))
                        .given(STORE)
                        .fire()));
        assertThat(failure).isInstanceOf(RuleFailedException.class).hasMessageContaining(what);
        assertThat(((RuleFailedException) failure).rule()).isEqualTo(rule);
        assertThat(failure.getMessage()).contains("'" + rule + "'");
    }

    @Test
    void aRuleThatAllocatesWithoutEndIsStoppedAtTheMemoryBudget() {
        String before = System.getProperty(ContainmentLimits.MEMORY_PROPERTY);
        System.setProperty(ContainmentLimits.MEMORY_PROPERTY, "64");
        try {
            Throwable failure = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> catchThrowable(
                    () -> CycleTester.of(TestBundles.compiled("contained/huge-allocation")).given(STORE).fire()));
            assertThat(failure).isInstanceOf(RuleMemoryExceededException.class)
                    .hasMessageContaining("rule 'Allocate without end' exceeded the memory a cycle may use");
        } finally {
            if (before == null) System.clearProperty(ContainmentLimits.MEMORY_PROPERTY);
            else System.setProperty(ContainmentLimits.MEMORY_PROPERTY, before);
        }
    }

    @Test
    void aDeadlineNamesTheLimitThatWasReached() {
        Throwable failure = catchThrowable(() -> CycleTester.of(TestBundles.compiled("contained/loop-in-consequence"))
                .given(STORE)
                .fire());
        assertThat(failure).isInstanceOf(RuleDeadlineExceededException.class);
        RuleDeadlineExceededException deadline = (RuleDeadlineExceededException) failure;
        assertThat(deadline.limitName()).isEqualTo("limits.cycleDeadline");
        assertThat(deadline.deadline()).isEqualTo(Duration.ofMillis(300));
    }

    @Test
    void thePolicysCycleDeadlineStopsACycleWhenItIsShorterThanTheBundles() {
        Policy policy = PolicyParser.parse("policy.yaml", "limits: {cycleDeadline: 100ms}\n");
        Throwable failure = catchThrowable(() -> CycleTester.of(TestBundles.compiled("contained/loop-in-consequence"))
                .given(STORE)
                .fire(policy));
        assertThat(failure).isInstanceOf(RuleDeadlineExceededException.class)
                .hasMessageContaining("rule 'Loop forever' exceeded its deadline")
                .hasMessageContaining("the policy's limits.cycleDeadline");
        RuleDeadlineExceededException deadline = (RuleDeadlineExceededException) failure;
        assertThat(deadline.limitName()).isEqualTo(ContainmentLimits.CYCLE_NAME);
        assertThat(deadline.deadline()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void thePolicysMemoryBudgetStopsARuleThatAllocatesWithoutEnd() {
        Policy policy = PolicyParser.parse("policy.yaml", "limits: {cycleMemoryMiB: 32}\n");
        Throwable failure = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> catchThrowable(
                () -> CycleTester.of(TestBundles.compiled("contained/huge-allocation")).given(STORE).fire(policy)));
        assertThat(failure).isInstanceOf(RuleMemoryExceededException.class)
                .hasMessageContaining("rule 'Allocate without end' exceeded the memory a cycle may use")
                .hasMessageContaining("32 MiB").hasMessageContaining("the policy's limits.cycleMemoryMiB");
    }

    /** One instruction can take gigabytes: the array is refused before it exists, in the rule that asked for it. */
    @Test
    void anArrayTooLargeForTheMemoryBudgetIsRefusedInTheRuleThatAskedForIt() {
        Policy policy = PolicyParser.parse("policy.yaml", "limits: {cycleMemoryMiB: 64}\n");
        Throwable failure = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> catchThrowable(
                () -> CycleTester.of(TestBundles.compiled("contained/array-blamed-on-its-rule")).given(STORE).fire(policy)));
        assertThat(failure).isInstanceOf(RuleMemoryExceededException.class)
                .hasMessageContaining("rule 'Take an array of 128 MiB' exceeded the memory a cycle may use")
                .hasMessageContaining("asked for an array of 128 MiB");
        assertThat(((RuleFailedException) failure).rule()).isEqualTo("Take an array of 128 MiB");
    }

    /** A JDK call that allocates is followed by no check of the rule's own: the rule's end measures it. */
    @Test
    void whatAJdkCallAllocatedIsBlamedOnTheRuleThatMadeIt() {
        Policy policy = PolicyParser.parse("policy.yaml", "limits: {cycleMemoryMiB: 64}\n");
        Throwable failure = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> catchThrowable(
                () -> CycleTester.of(TestBundles.compiled("contained/string-blamed-on-its-rule")).given(STORE).fire(policy)));
        assertThat(failure).isInstanceOf(RuleMemoryExceededException.class)
                .hasMessageContaining("rule 'Repeat a string 100 million times' exceeded the memory a cycle may use");
    }

    /** A regular expression built at run time is not checked when the bundle compiles; its matching is budgeted. */
    @Test
    void aComputedRegularExpressionThatBacktracksStopsAtTheDeadline() {
        Throwable failure = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> catchThrowable(
                () -> CycleTester.of(TestBundles.compiled("contained/regex-computed-in-consequence")).given(STORE).fire()));
        assertThat(failure).isInstanceOf(RuleDeadlineExceededException.class)
                .hasMessageContaining("rule 'Backtrack for ages' exceeded its deadline");
    }

    @Test
    void regularExpressionsMatchUnderTheBudgetAsTheJdkMatchesThem() {
        String text = "a-b--c, d";
        assertThat(RegexGuard.matches(text, "[a-d, -]+")).isEqualTo(text.matches("[a-d, -]+"));
        assertThat(RegexGuard.replaceAll(text, "-+", "/")).isEqualTo(text.replaceAll("-+", "/"));
        assertThat(RegexGuard.replaceFirst(text, "-+", "/")).isEqualTo(text.replaceFirst("-+", "/"));
        assertThat(RegexGuard.split(text, "-")).containsExactly(text.split("-"));
        assertThat(RegexGuard.split(text, "-", 2)).containsExactly(text.split("-", 2));
        assertThat(RegexGuard.split("", ",")).containsExactly("".split(","));
        assertThat(RegexGuard.patternSplit(java.util.regex.Pattern.compile(","), text)).containsExactly(text.split(","));
        assertThat(RegexGuard.matcher(java.util.regex.Pattern.compile("c"), text).find()).isTrue();
    }

    @Test
    void deadlinesAreCpuTimeSoTimeTheThreadDoesNotRunDoesNotCount() {
        assertThat(RuleBudget.clock()).as("HotSpot on Linux reads a thread's CPU time").isEqualTo(RuleBudget.Clock.CPU);
        Throwable failure = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> catchThrowable(() ->
                RuleBudget.within("the test's deadline", Duration.ofMillis(200), 0, () -> {
                    // Half a second of wall-clock time without running (as under load, or in a collection):
                    // not spent, so the checks after it pass.
                    await().pollDelay(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> true);
                    for (int i = 0; i < 1_000; i++) RuleBudget.check();
                    String passed = "passed the wait";
                    // Spinning spends CPU time: stopped once it has used the 200ms.
                    while (passed != null) RuleBudget.check();
                    return passed;
                })));
        assertThat(failure).isInstanceOf(BudgetExceededError.class)
                .hasMessage("used more than 200ms of CPU time (the test's deadline)");
    }

    @Test
    void codeOutsideABudgetRunsUnchecked() {
        RuleBudget.check(); // no budget on this thread: nothing to spend
        assertThat(RuleBudget.within("test", Duration.ofSeconds(5), 0, () -> "done")).isEqualTo("done");
    }
}
