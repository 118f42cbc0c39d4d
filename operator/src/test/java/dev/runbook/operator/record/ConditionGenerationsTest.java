package dev.runbook.operator.record;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ConditionGenerationsTest {
    static final Map<String, Object> READY = Map.of("type", "Ready", "status", "True");
    static final Map<String, Object> APPLIED = Map.of("type", "RunbookApplied", "status", "True");
    static final Map<String, Object> OLD = Map.of("type", "Degraded", "status", "False", "observedGeneration", 1L);
    static final Map<String, Object> STATUS = Map.of("phase", "Serving", "conditions", List.of(READY, OLD, APPLIED));

    @Test
    void theConditionsTheCycleSetCarryTheGenerationItObservedAndTheOthersKeepTheirs() {
        Map<String, Object> stamped = new ConditionGenerations("WebApp").stamp(STATUS, Set.of("Ready", "RunbookApplied"), 3);

        assertThat(stamped.get("phase")).isEqualTo("Serving");
        assertThat(stamped.get("conditions")).isEqualTo(List.of(
                Map.of("type", "Ready", "status", "True", "observedGeneration", 3L),
                OLD,
                Map.of("type", "RunbookApplied", "status", "True", "observedGeneration", 3L)));
        assertThat(STATUS.get("conditions")).as("the status given is not modified").isEqualTo(List.of(READY, OLD, APPLIED));
    }

    @Test
    void aStatusWithoutConditionsIsLeftAsItIs() {
        Map<String, Object> status = Map.of("phase", "Serving");
        assertThat(new ConditionGenerations("WebApp").stamp(status, Set.of("Ready"), 3)).isSameAs(status);
    }

    @Test
    void aWriteThatComesBackWithoutTheFieldMeansTheCrdPrunesItAndItIsNotWrittenAgain() {
        ConditionGenerations generations = new ConditionGenerations("WebApp");
        Map<String, Object> sent = generations.stamp(STATUS, Set.of("Ready", "RunbookApplied"), 3);

        generations.learn(sent, Map.of("status", Map.of("conditions", List.of(READY, APPLIED))));

        assertThat(generations.pruned()).isTrue();
        assertThat(generations.stamp(STATUS, Set.of("Ready", "RunbookApplied"), 4)).isSameAs(STATUS);
    }

    @Test
    void aWriteThatKeepsTheFieldTeachesNothing() {
        ConditionGenerations generations = new ConditionGenerations("WebApp");
        Map<String, Object> sent = generations.stamp(STATUS, Set.of("Ready"), 3);

        generations.learn(sent, Map.of("status", sent));
        generations.learn(Map.of("phase", "Serving"), Map.of("status", Map.of("phase", "Serving")));
        generations.learn(Map.of("conditions", List.of(READY)), Map.of("status", Map.of("conditions", List.of(READY))));
        generations.learn(sent, Map.of("metadata", Map.of("name", "shop")));

        assertThat(generations.pruned()).as("only a condition sent with the field and stored without it tells").isFalse();
        assertThat(generations.stamp(STATUS, Set.of("Ready"), 4).get("conditions"))
                .isEqualTo(List.of(Map.of("type", "Ready", "status", "True", "observedGeneration", 4L), OLD, APPLIED));
    }
}
