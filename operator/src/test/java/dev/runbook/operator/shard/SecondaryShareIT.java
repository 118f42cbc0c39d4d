package dev.runbook.operator.shard;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.testkit.MergePatches;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.SpreadNames;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two sharded operators of the web-app test bundle (a ConfigMap applied from a template, owned; Secrets
 * selected by a label naming the primary and counted into {@code status.credentials}) over 10 primaries
 * that the sharder assigned with their Secrets: each member's secondary informers hold its share. The
 * ConfigMap each member applies carries the member's label from its create (so its owner-mapped
 * informer, which selects that label, holds it); a Secret of a member's primary labelled for the other
 * member is not in the owner's informer, so its cycles do not count it (an unsharded informer would);
 * once the sharder's next pass labels it for its primary's owner, they do.
 */
@RunbookIT(crds = "src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml")
class SecondaryShareIT {
    static final String API_VERSION = "test.runbook.dev/v1";
    static final String KIND = "WebApp";
    static final Set<String> MEMBERS = Set.of("replica-a", "replica-b");
    static CompiledBundle webApp;

    @TestNamespace("share")
    String namespace;

    @BeforeAll
    static void compile() {
        webApp = BundleCompiler.compile(BundleLoader.load(Path.of("src/test/resources/bundles/web-app")));
    }

    @Test
    void eachMembersSecondaryInformersHoldItsShare(KubernetesClient client) {
        for (String name : SpreadNames.over("test.runbook.dev", KIND, namespace, "app", 10, List.of(MEMBERS))) {
            client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).resource(new GenericKubernetesResourceBuilder()
                    .withApiVersion(API_VERSION).withKind(KIND).withNewMetadata().withName(name).endMetadata()
                    .addToAdditionalProperties("spec", Map.of("greeting", "hello")).build()).create();
            for (String secret : List.of("user", "admin")) client.secrets().inNamespace(namespace).resource(secret(name, secret, null)).create();
        }
        Sharder sharder = new Sharder(client, webApp.spec().primary(), webApp.spec().secondaries(), Set.of(namespace));
        await().atMost(TestCluster.CONVERGE).until(() -> !sharder.pass(MEMBERS).unsettled()
                && primaries(client).stream().allMatch(p -> owner(p.getMetadata().getLabels()) != null));

        try (RunbookOperator a = member(client, "replica-a"); RunbookOperator b = member(client, "replica-b")) {
            await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(primaries(client)).hasSize(10).allSatisfy(p -> {
                assertThat(status(p, "credentials")).isEqualTo("2");
                ConfigMap config = client.configMaps().inNamespace(namespace).withName(p.getMetadata().getName() + "-config").get();
                assertThat(config).isNotNull();
                assertThat(owner(config.getMetadata().getLabels())).as("applied with its owner's label")
                        .isEqualTo(owner(p.getMetadata().getLabels()));
            }));
            assertThat(primaries(client).stream().map(p -> owner(p.getMetadata().getLabels())).distinct()).hasSize(2);

            GenericKubernetesResource primary = primaries(client).get(0);
            String name = primary.getMetadata().getName();
            String other = owner(primary.getMetadata().getLabels()).equals("replica-a") ? "replica-b" : "replica-a";
            client.secrets().inNamespace(namespace).resource(secret(name, "stray", other)).create();
            // A change of the primary makes its owner run a cycle; its Ready condition records the generation it saw.
            long generation = greet(client, name, "bonjour");
            await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(readyGeneration(primary(client, name))).isEqualTo(generation));
            assertThat(status(primary(client, name), "credentials")).as("the other member's Secret is not in the owner's informer")
                    .isEqualTo("2");

            await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
                sharder.pass(MEMBERS);
                assertThat(status(primary(client, name), "credentials")).as("labelled for its owner by the next pass: counted").isEqualTo("3");
            });
        }
    }

    /**
     * A Secret of a member's primary created without any shard label (as a Pod is while the webhook at
     * create does not answer) is in that member's informer of unlabelled objects: its next cycle counts it
     * before any sharder pass labels it, and the other member's primaries do not. The cycle's label action
     * updates that very object (same uid), never creates a second. Once a pass labels it for its owner it
     * moves to the owner's labelled informer and is still counted once.
     */
    @Test
    void anUnlabelledSecondaryIsSeenByItsOwnerBeforeAnyPass(KubernetesClient client) {
        for (int i = 0; i < 4; i++) {
            client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).resource(new GenericKubernetesResourceBuilder()
                    .withApiVersion(API_VERSION).withKind(KIND).withNewMetadata().withName("app-" + i).endMetadata()
                    .addToAdditionalProperties("spec", Map.of("greeting", "hello")).build()).create();
        }
        Sharder sharder = new Sharder(client, webApp.spec().primary(), webApp.spec().secondaries(), Set.of(namespace));
        await().atMost(TestCluster.CONVERGE).until(() -> !sharder.pass(MEMBERS).unsettled()
                && primaries(client).stream().allMatch(p -> owner(p.getMetadata().getLabels()) != null));

        try (RunbookOperator a = member(client, "replica-a"); RunbookOperator b = member(client, "replica-b")) {
            await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(primaries(client)).hasSize(4)
                    .allSatisfy(p -> assertThat(status(p, "credentials")).isEqualTo("0")));
            String name = "app-0";
            String uid = client.secrets().inNamespace(namespace).resource(secret(name, "late", null)).create().getMetadata().getUid();

            await().atMost(TestCluster.CONVERGE).untilAsserted(() ->
                    assertThat(status(primary(client, name), "credentials")).as("counted by its owner, no pass yet").isEqualTo("1"));
            var late = client.secrets().inNamespace(namespace).withName(name + "-late").get();
            assertThat(late.getMetadata().getLabels()).as("no sharder pass ran").doesNotContainKey(ShardLabels.SHARD)
                    .containsEntry("test.runbook.dev/used-by", name);
            assertThat(late.getMetadata().getUid()).as("the cycle updated the object it saw, created none").isEqualTo(uid);
            assertThat(primaries(client)).filteredOn(p -> !p.getMetadata().getName().equals(name))
                    .allSatisfy(p -> assertThat(status(p, "credentials")).as("another primary's").isEqualTo("0"));

            await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
                sharder.pass(MEMBERS);
                assertThat(owner(client.secrets().inNamespace(namespace).withName(name + "-late").get().getMetadata().getLabels()))
                        .isEqualTo(owner(primary(client, name).getMetadata().getLabels()));
            });
            long generation = greet(client, name, "bonjour");
            await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(readyGeneration(primary(client, name))).isEqualTo(generation));
            assertThat(status(primary(client, name), "credentials")).as("labelled now: counted once").isEqualTo("1");
        }
    }

    /** Changes the primary's greeting, which makes its owner run a cycle; the primary's new generation. */
    private long greet(KubernetesClient client, String name, String greeting) {
        return MergePatches.merge(client, client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).withName(name),
                Map.of("spec", Map.of("greeting", greeting))).getMetadata().getGeneration();
    }

    private RunbookOperator member(KubernetesClient client, String name) {
        RunbookOperator operator = RunbookOperator.builder(client).bundles(List.of(webApp)).namespaces(Set.of(namespace))
                .shardMember(name).build();
        operator.start();
        return operator;
    }

    private static io.fabric8.kubernetes.api.model.Secret secret(String primary, String name, String shard) {
        var metadata = new SecretBuilder().withNewMetadata().withName(primary + "-" + name)
                .addToLabels("app.kubernetes.io/instance", primary);
        if (shard != null) metadata.addToLabels(ShardLabels.SHARD, shard);
        return metadata.endMetadata().addToStringData("password", "x").build();
    }

    private List<GenericKubernetesResource> primaries(KubernetesClient client) {
        return client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).list().getItems();
    }

    private GenericKubernetesResource primary(KubernetesClient client, String name) {
        return client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).withName(name).get();
    }

    private static String owner(Map<String, String> labels) {
        return labels == null ? null : labels.get(ShardLabels.SHARD);
    }

    @SuppressWarnings("unchecked")
    private static String status(GenericKubernetesResource primary, String field) {
        Object status = primary.getAdditionalProperties().get("status");
        return status instanceof Map<?, ?> map ? String.valueOf(((Map<String, Object>) map).get(field)) : null;
    }

    @SuppressWarnings("unchecked")
    private static Long readyGeneration(GenericKubernetesResource primary) {
        Object status = primary.getAdditionalProperties().get("status");
        if (!(status instanceof Map<?, ?> map) || !(map.get("conditions") instanceof List<?> conditions)) return null;
        return conditions.stream().map(c -> (Map<String, Object>) c).filter(c -> "Ready".equals(c.get("type")))
                .map(c -> c.get("observedGeneration")).filter(Number.class::isInstance).map(n -> ((Number) n).longValue())
                .findFirst().orElse(null);
    }
}
