package dev.runbook.engine.decide;

import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.Apply;
import dev.runbook.rules.action.Delete;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Primary;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RecommendedLabelsTest {
    private final Primary primary = new Primary(Map.of("apiVersion", "example.dev/v1", "kind", "WebApp",
            "metadata", Map.of("name", "shop", "namespace", "team-a", "uid", "u-1")));

    private static Apply apply(Map<String, Object> metadata) {
        return new Apply(Map.of("apiVersion", "apps/v1", "kind", "Deployment", "metadata", metadata), null);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> labelsOf(Action action) {
        Map<String, Object> metadata = (Map<String, Object>) ((Apply) action).getObject().get("metadata");
        return (Map<String, Object>) metadata.get("labels");
    }

    @Test
    void addsManagedByPartOfAndInstanceToAnAppliedObject() {
        Action labelled = RecommendedLabels.of(apply(Map.of("name", "shop", "namespace", "team-a")), "web-app", primary);

        assertThat(labelsOf(labelled)).containsExactly(
                Map.entry("app.kubernetes.io/managed-by", "runbook-operator"),
                Map.entry("app.kubernetes.io/part-of", "web-app"),
                Map.entry("app.kubernetes.io/instance", "shop"));
    }

    @Test
    void keepsTheLabelsTheRuleSetIncludingARecommendedOne() {
        Action labelled = RecommendedLabels.of(apply(Map.of("name", "shop", "namespace", "team-a",
                "labels", Map.of("app", "shop", "app.kubernetes.io/instance", "shop-blue"))), "web-app", primary);

        assertThat(labelsOf(labelled))
                .containsEntry("app", "shop")
                .containsEntry("app.kubernetes.io/instance", "shop-blue")
                .containsEntry("app.kubernetes.io/part-of", "web-app");
    }

    @Test
    void leavesAnObjectThatHasThemAllAsItIs() {
        Apply complete = apply(Map.of("name", "shop", "namespace", "team-a", "labels", Map.of(
                "app.kubernetes.io/managed-by", "runbook-operator", "app.kubernetes.io/part-of", "web-app",
                "app.kubernetes.io/instance", "shop")));

        assertThat(RecommendedLabels.of(complete, "web-app", primary)).isSameAs(complete);
    }

    @Test
    void neverLabelsThePrimaryNorOtherActions() {
        Apply toPrimary = new Apply(Map.of("apiVersion", "example.dev/v1", "kind", "WebApp",
                "metadata", Map.of("name", "shop", "namespace", "team-a")), null);
        Delete delete = new Delete(ObjectRef.of("v1", "Service", "team-a", "old"));

        assertThat(RecommendedLabels.of(toPrimary, "web-app", primary)).isSameAs(toPrimary);
        assertThat(RecommendedLabels.of(delete, "web-app", primary)).isSameAs(delete);
    }
}
