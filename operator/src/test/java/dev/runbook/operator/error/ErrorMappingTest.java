package dev.runbook.operator.error;

import dev.runbook.engine.check.PlanProblem;
import dev.runbook.engine.containment.RuleDeadlineExceededException;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.FiringLimitExceededException;
import dev.runbook.engine.decide.RuleFailedException;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.time.Instant;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ErrorMappingTest {
    @ParameterizedTest
    @ValueSource(ints = {0, 408, 429, 500, 502, 503, 504})
    void anUnavailableApiServerIsTemporary(int code) {
        Failure failure = ErrorMapping.classify(new KubernetesClientException("down", code, null));
        assertThat(failure.kind()).isEqualTo(Failure.Kind.TEMPORARY);
        assertThat(failure.reason()).isEqualTo(Reasons.API_UNAVAILABLE);
    }

    @Test
    void aConflictIsTemporary() {
        Failure failure = ErrorMapping.classify(new KubernetesClientException("stale", 409, null));
        assertThat(failure.isTemporary()).isTrue();
        assertThat(failure.reason()).isEqualTo(Reasons.CONFLICT);
    }

    @Test
    void anUnreachableServerIsTemporary() {
        Failure failure = ErrorMapping.classify(new KubernetesClientException("io", new IOException("connection refused")));
        assertThat(failure.isTemporary()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 403, 404, 422})
    void anActionTheServerRefusesIsPermanentAndNamesTheActionAndRules(int code) {
        var error = new ActionFailedException("apply ConfigMap demo/x", List.of("Keep the configuration"),
                new KubernetesClientException("refused", code, null));
        Failure failure = ErrorMapping.classify(error);
        assertThat(failure.kind()).isEqualTo(Failure.Kind.PERMANENT);
        assertThat(failure.reason()).isEqualTo(Reasons.ACTION_FAILED);
        assertThat(failure.describe()).isEqualTo("apply ConfigMap demo/x: refused (rules: Keep the configuration)");
    }

    @Test
    void anActionThatMetAnUnavailableServerStaysTemporary() {
        var error = new ActionFailedException("apply ConfigMap demo/x", List.of("r"), new KubernetesClientException("down", 503, null));
        assertThat(ErrorMapping.classify(error).isTemporary()).isTrue();
        assertThat(ErrorMapping.classify(error).reason()).isEqualTo(Reasons.API_UNAVAILABLE);
    }

    @Test
    void aRuleStoppedAtItsDeadlineIsPermanentAndNamesTheRule() {
        Failure stopped = ErrorMapping.classify(new RuleDeadlineExceededException("Loop forever", "limits.cycleDeadline",
                Duration.ofMillis(300), dev.runbook.engine.containment.RuleBudget.Clock.CPU, null));
        assertThat(stopped.kind()).isEqualTo(Failure.Kind.PERMANENT);
        assertThat(stopped.reason()).isEqualTo(Reasons.RULE_STOPPED);
        assertThat(stopped.message()).startsWith("rule 'Loop forever' exceeded its deadline");
        assertThat(stopped.rules()).containsExactly("Loop forever");
    }

    @Test
    void aFailedRuleAndTheFiringLimitArePermanentAndNameTheRules() {
        Failure rule = ErrorMapping.classify(new RuleFailedException("Replicas are recorded", new IllegalArgumentException("bad")));
        assertThat(rule.kind()).isEqualTo(Failure.Kind.PERMANENT);
        assertThat(rule.reason()).isEqualTo(Reasons.RULE_FAILED);
        assertThat(rule.rules()).containsExactly("Replicas are recorded");

        Map<String, Integer> top = new LinkedHashMap<>();
        top.put("Loop", 9000);
        top.put("Other", 3);
        Failure limit = ErrorMapping.classify(new FiringLimitExceededException(10_000, top));
        assertThat(limit.reason()).isEqualTo(Reasons.FIRING_LIMIT_EXCEEDED);
        assertThat(limit.rules()).containsExactly("Loop", "Other");
    }

    @Test
    void aRefusedPlanListsEveryProblemAndEveryRule() {
        Decision decision = new Decision("b", "v", Instant.EPOCH, List.of(), List.of(), List.of(
                new PlanProblem(PlanProblem.Kind.CONFLICT, "conflict on x", List.of("A", "B")),
                new PlanProblem(PlanProblem.Kind.PROTECTED_KIND, "touches y", List.of("B", "C"))));
        Failure failure = ErrorMapping.planRefused(decision);
        assertThat(failure.kind()).isEqualTo(Failure.Kind.PERMANENT);
        assertThat(failure.reason()).isEqualTo(Reasons.PLAN_REFUSED);
        assertThat(failure.rules()).containsExactly("A", "B", "C");
        assertThat(failure.message()).contains("CONFLICT: conflict on x", "PROTECTED_KIND: touches y");
    }

    @Test
    void anythingElseIsReportedNotRetriedInALoop() {
        Failure failure = ErrorMapping.classify(new NullPointerException("oops"));
        assertThat(failure.kind()).isEqualTo(Failure.Kind.PERMANENT);
        assertThat(failure.reason()).isEqualTo(Reasons.INTERNAL_ERROR);
        assertThat(ErrorMapping.classify(new InvalidAnnotationException("bad")).reason()).isEqualTo(Reasons.INVALID_ANNOTATION);
    }
}
