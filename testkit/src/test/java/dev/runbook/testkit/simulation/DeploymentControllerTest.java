package dev.runbook.testkit.simulation;

import dev.runbook.rules.fact.ObjectRef;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.runbook.testkit.simulation.Kube.T0;
import static dev.runbook.testkit.simulation.Kube.at;
import static org.assertj.core.api.Assertions.assertThat;

class DeploymentControllerTest {
    private final Simulator sim = new Simulator(T0);
    private final ObjectRef web = Simulator.ref("Deployment", "prod", "web");

    private void createWeb(int replicas, String image) {
        sim.create(Map.of("apiVersion", "apps/v1", "kind", "Deployment",
                "metadata", Map.of("name", "web", "namespace", "prod"),
                "spec", Map.of("replicas", replicas, "selector", Map.of("matchLabels", Map.of("app", "web")),
                        "template", Map.of("metadata", Map.of("labels", Map.of("app", "web")),
                                "spec", Map.of("containers", List.of(Map.of("name", "web", "image", image)))))));
    }

    private List<String> podNames() {
        return sim.cluster().list("Pod").stream().map(p -> (String) at(p, "metadata.name")).toList();
    }

    private Map<String, Object> available() {
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> conditions = (List<Map<String, Object>>) at(sim.get(web).orElseThrow(), "status.conditions");
        return conditions.stream().filter(c -> "Available".equals(c.get("type"))).findFirst().orElseThrow();
    }

    @Test
    void podsAreNamedByRevisionAndOrdinalAndTheDeploymentBecomesAvailableWhenTheyAreReady() {
        createWeb(2, "web:1");
        sim.settle();
        assertThat(podNames()).containsExactly("web-1-0", "web-1-1");
        assertThat(available()).containsEntry("status", "False");

        sim.advance(Duration.ofSeconds(30));
        assertThat(available()).containsEntry("status", "True")
                .containsEntry("lastTransitionTime", T0.plusSeconds(10).toString());
        Map<String, Object> deployment = sim.get(web).orElseThrow();
        assertThat(at(deployment, "status.availableReplicas")).isEqualTo(2);
        assertThat(at(deployment, "metadata.annotations")).asString().contains("deployment.kubernetes.io/revision=1");
    }

    @Test
    void aNewTemplateSurgesAndRetiresTheOldPodsOnceTheNewAreReady() {
        createWeb(2, "web:1");
        sim.advance(Duration.ofSeconds(30));
        sim.setField(web, "spec.template.spec.containers[0].image", "web:2");
        sim.settle();
        assertThat(podNames()).containsExactlyInAnyOrder("web-1-0", "web-1-1", "web-2-0", "web-2-1");
        assertThat(at(sim.get(web).orElseThrow(), "status.updatedReplicas")).isEqualTo(2);

        sim.advance(Duration.ofSeconds(10));
        assertThat(podNames()).containsExactlyInAnyOrder("web-2-0", "web-2-1");
        assertThat(available()).containsEntry("status", "True");
    }

    @Test
    void aPodThatStaysNotReadyKeepsTheDeploymentUnavailableAndTheOldPodsServing() {
        createWeb(1, "web:1");
        sim.advance(Duration.ofSeconds(30));
        sim.setField(web, "spec.template.spec.containers[0].image", "web:broken");
        sim.settle();
        sim.podNotReady(Simulator.ref("Pod", "prod", "web-2-0"));
        sim.advance(Duration.ofMinutes(5));

        assertThat(podNames()).containsExactlyInAnyOrder("web-1-0", "web-2-0");
        assertThat(at(sim.get(web).orElseThrow(), "status.readyReplicas")).isEqualTo(1);
    }

    @Test
    void deletingTheDeploymentTakesItsPods() {
        createWeb(2, "web:1");
        sim.settle();
        sim.delete(web);
        sim.settle();
        assertThat(podNames()).isEmpty();
    }

    @Test
    void readyPodsWrittenInTheStateAreAdoptedAsTheFirstRevision() {
        sim.create(Map.of("apiVersion", "v1", "kind", "Pod", "metadata", Map.of("name", "web-1-0", "namespace", "prod",
                        "labels", Map.of("app", "web")),
                "status", Map.of("phase", "Running", "conditions", List.of(Map.of("type", "Ready", "status", "True",
                        "lastTransitionTime", "2026-03-01T08:00:00Z")))));
        createWeb(1, "web:1");
        sim.settle();

        assertThat(podNames()).containsExactly("web-1-0");
        assertThat(available()).containsEntry("status", "True").containsEntry("lastTransitionTime", "2026-03-01T08:00:00Z");
    }
}
