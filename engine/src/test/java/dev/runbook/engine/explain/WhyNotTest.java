package dev.runbook.engine.explain;

import dev.runbook.engine.TestBundles;
import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.plan.PlanYaml;
import dev.runbook.engine.policy.Policy;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.state.ObservationBuilder;
import dev.runbook.engine.state.StateFiles;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WhyNotTest {
    private static final String PROMOTE = "Promote the most advanced ready replica when the primary has failed";
    /** The primary's pod turned not ready at 08:59:00; the failover delay is 30 s. */
    private static final Instant WITHIN_THE_DELAY = Instant.parse("2026-11-30T08:59:10Z");
    private static final Instant PAST_THE_DELAY = Instant.parse("2026-11-30T09:00:00Z");

    /** A copy of its own: an explanation adds its queries to the bundle's knowledge base. */
    private static CompiledBundle bundle() {
        return BundleCompiler.compile(BundleLoader.load(TestBundles.directory("example")));
    }

    private static Observation observe(CompiledBundle bundle, String sample, Instant now) {
        var objects = StateFiles.read(List.of(TestBundles.directory("example").resolve("samples/" + sample)));
        return ObservationBuilder.build(bundle.spec(), objects, null, now, Map.of());
    }

    private static Explanation explain(CompiledBundle bundle, Observation observation, String rule) {
        Decision decision = DecisionCycle.run(bundle, observation, Policy.DEFAULT);
        return WhyNot.explain(bundle, observation, Policy.DEFAULT, rule, decision, BundleCompiler::compile);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aRuleStoppedByOneConstraintIsExplainedByThatConstraintWithTheValuesItCompared() {
        CompiledBundle bundle = bundle();
        Explanation explanation = explain(bundle, observe(bundle, "primary-failed.yaml", WITHIN_THE_DELAY), PROMOTE);

        assertThat(explanation.fired()).isFalse();
        assertThat(explanation.where()).isEqualTo("rules/failover.drl:10");
        assertThat(explanation.verdict()).isEqualTo("does not fire: no Member fact meets "
                + "`pod.secondsSinceTransition(\"Ready\", $clock) >= $params.seconds(\"failoverDelay\")` (rules/failover.drl:15); "
                + "1 Member fact was tested against it");
        assertThat(explanation.conditions()).extracting(c -> c.get("condition")).containsExactly(
                "$store : Primary($current : str(\"status.currentPrimary\", \"\"))", "$clock : Clock()", "$params : Params()",
                "Member(pod.name == $current, !ready, pod.secondsSinceTransition(\"Ready\", $clock) >= $params.seconds(\"failoverDelay\"))");
        Map<String, Object> member = explanation.conditions().get(3);
        List<Map<String, Object>> constraints = (List<Map<String, Object>>) member.get("constraints");
        assertThat(constraints).extracting(c -> c.get("constraint"), c -> c.get("matches")).containsExactly(
                org.assertj.core.groups.Tuple.tuple("pod.name == $current", 1),
                org.assertj.core.groups.Tuple.tuple("!ready", 1),
                org.assertj.core.groups.Tuple.tuple("pod.secondsSinceTransition(\"Ready\", $clock) >= $params.seconds(\"failoverDelay\")", 0));
        List<Object> tested = (List<Object>) constraints.get(2).get("testedAgainst");
        assertThat(tested).singleElement().satisfies(t -> {
            Map<String, Object> candidate = (Map<String, Object>) t;
            assertThat((String) candidate.get("fact")).contains("main-0");
            assertThat((Map<String, Object>) candidate.get("values")).containsExactly(
                    Map.entry("pod.secondsSinceTransition(\"Ready\", $clock)", 10L),
                    Map.entry("$params.seconds(\"failoverDelay\")", 30L));
        });
        assertThat(explanation.notReached()).containsExactly("$best : Member(role == \"replica\", ready)",
                "not Member(role == \"replica\", ready, position > $best.position)",
                "not Member(role == \"replica\", ready, position == $best.position, ordinal < $best.ordinal)");
        // What `runbook why --rule` prints.
        assertThat(PlanYaml.dump(explanation.toMap())).contains("verdict: 'does not fire: no Member fact meets");
    }

    @Test
    void anAccumulateIsExplainedWholeAfterTheConditionsBeforeItHeld() {
        CompiledBundle bundle = bundle();
        Explanation explanation = explain(bundle, observe(bundle, "primary-failed.yaml", PAST_THE_DELAY),
                "Ready when every wanted member is ready");

        assertThat(explanation.verdict()).isEqualTo("does not fire: `accumulate(Member(ready); $ready : count(); "
                + "$ready.intValue() >= $wanted)` (rules/status.drl:21) does not hold for any match of the conditions "
                + "before it (a condition of this form is evaluated whole)");
        assertThat(explanation.conditions()).extracting(c -> c.get("matches")).containsExactly(1, 0);
    }

    @Test
    void aRuleThatFiredSaysWhatItMatched() {
        CompiledBundle bundle = bundle();
        Explanation explanation = explain(bundle, observe(bundle, "primary-failed.yaml", PAST_THE_DELAY), PROMOTE);

        assertThat(explanation.fired()).isTrue();
        // Truth maintenance: it fired as Members were derived, once per best replica it saw on the way.
        assertThat(explanation.verdict()).isEqualTo("fired " + explanation.firings().size() + " times in this decision");
        assertThat(explanation.firings()).last().satisfies(m -> assertThat(m.toString()).contains("main-2"));
    }

    @Test
    void anUnknownRuleIsBadInputNamingTheRulesAlike() {
        CompiledBundle bundle = bundle();
        assertThatThrownBy(() -> explain(bundle, observe(bundle, "primary-failed.yaml", PAST_THE_DELAY), "Promote"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("--rule: bundle example@").hasMessageContaining("has no rule named 'Promote'; rules whose names contain it: '" + PROMOTE + "'");
    }
}
