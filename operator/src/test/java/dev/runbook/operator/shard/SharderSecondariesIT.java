package dev.runbook.operator.shard;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.BundleSpecParser;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.SpreadNames;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sharder moves a primary's secondaries with it, on an API server: the web-app test bundle's two
 * secondary kinds (ConfigMaps by owner reference, Secrets by a label naming the primary), 10 primaries
 * with one ConfigMap and two Secrets each. Every secondary ends labelled with its primary's owner, and
 * was labelled BEFORE the primary: its resourceVersion (one counter for the whole store, on etcd and on
 * the embedded server alike) is older than the primary's. An object created unlabelled later is
 * labelled by the next pass.
 */
@RunbookIT(crds = "src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml")
class SharderSecondariesIT {
    static final BundleSpec WEB_APP = webApp();
    static final String API_VERSION = "test.runbook.dev/v1";
    static final String KIND = "WebApp";

    @TestNamespace("secondaries")
    String namespace;

    KubernetesClient client;
    Sharder sharder;
    LabelPatches patches;

    static BundleSpec webApp() {
        try {
            return BundleSpecParser.parse(Files.readString(Path.of("src/test/resources/bundles/web-app/bundle.yaml")));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @BeforeEach
    void tenPrimariesWithTheirSecondaries(KubernetesClient client) {
        this.client = client;
        sharder = new Sharder(client, WEB_APP.primary(), WEB_APP.secondaries(), Set.of(namespace));
        patches = new LabelPatches(client, API_VERSION, KIND);
        for (String name : SpreadNames.over("test.runbook.dev", KIND, namespace, "app", 10, List.of(Set.of("replica-a", "replica-b")))) {
            createPrimaryWithSecondaries(name);
        }
    }

    @Test
    void everySecondaryIsLabelledWithItsPrimarysOwnerBeforeThePrimary() {
        Set<String> two = Set.of("replica-a", "replica-b");
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            sharder.pass(two);
            assertThat(primaries()).hasSize(10).allSatisfy(primary -> assertThat(owner(primary)).isNotNull());
        });
        for (GenericKubernetesResource primary : primaries()) {
            assertThat(secondariesOf(primary)).hasSize(3).allSatisfy(secondary -> {
                assertThat(owner(secondary)).as("%s follows its primary", secondary.getMetadata().getName()).isEqualTo(owner(primary));
                assertThat(version(secondary)).as("%s labelled before its primary", secondary.getMetadata().getName())
                        .isLessThan(version(primary));
            });
        }
    }

    @Test
    void aHandoverRelabelsTheSecondariesBeforeTheNewOwnerIsWrittenOnThePrimary() {
        await().atMost(TestCluster.CONVERGE).until(() -> !sharder.pass(Set.of("replica-a")).unsettled()
                && primaries().stream().allMatch(p -> "replica-a".equals(owner(p))));
        Set<String> two = Set.of("replica-a", "replica-b");
        await().atMost(TestCluster.CONVERGE).until(() -> sharder.pass(two).draining() > 0 && !draining().isEmpty());
        List<GenericKubernetesResource> drained = draining();
        // The old owner's secondaries stay its own while it may still act: a drain moves no secondary.
        for (GenericKubernetesResource primary : drained) {
            assertThat(secondariesOf(primary)).allSatisfy(secondary -> assertThat(owner(secondary)).isEqualTo("replica-a"));
            assertThat(patches.acknowledgeDrain(primary)).isEqualTo(LabelPatches.Outcome.WRITTEN);
        }
        List<String> moved = drained.stream().map(p -> p.getMetadata().getName()).toList();
        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            sharder.pass(two);
            assertThat(primaries()).filteredOn(p -> moved.contains(p.getMetadata().getName()))
                    .allSatisfy(primary -> assertThat(owner(primary)).isEqualTo("replica-b"));
        });
        for (GenericKubernetesResource primary : primaries()) {
            if (!moved.contains(primary.getMetadata().getName())) continue;
            assertThat(secondariesOf(primary)).hasSize(3).allSatisfy(secondary -> {
                assertThat(owner(secondary)).isEqualTo("replica-b");
                assertThat(version(secondary)).as("%s relabelled before %s got its new owner", secondary.getMetadata().getName(),
                        primary.getMetadata().getName()).isLessThan(version(primary));
            });
        }
    }

    @Test
    void aSecondaryCreatedWithoutTheLabelIsLabelledByTheNextPass() {
        Set<String> two = Set.of("replica-a", "replica-b");
        await().atMost(TestCluster.CONVERGE).until(() -> !sharder.pass(two).unsettled()
                && primaries().stream().allMatch(p -> owner(p) != null));
        GenericKubernetesResource primary = primaries().get(0);
        client.secrets().inNamespace(namespace).resource(secret(primary.getMetadata().getName(), "late", null)).create();
        // A stray one, labelled for the other member (its create read an owner's label before a relabel).
        String other = owner(primary).equals("replica-a") ? "replica-b" : "replica-a";
        client.secrets().inNamespace(namespace).resource(secret(primary.getMetadata().getName(), "stray", other)).create();

        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> {
            sharder.pass(two);
            assertThat(secondariesOf(primary)).hasSize(5).allSatisfy(secondary -> assertThat(owner(secondary)).isEqualTo(owner(primary)));
        });
        assertThat(owner(primaries().get(0))).as("the primary keeps its owner").isEqualTo(owner(primary));
    }

    private void createPrimaryWithSecondaries(String name) {
        GenericKubernetesResource primary = client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace)
                .resource(new GenericKubernetesResourceBuilder().withApiVersion(API_VERSION).withKind(KIND)
                        .withNewMetadata().withName(name).endMetadata().addToAdditionalProperties("spec", Map.of()).build()).create();
        client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder().withNewMetadata().withName(name + "-config")
                .addNewOwnerReference().withApiVersion(API_VERSION).withKind(KIND).withName(name).withUid(primary.getMetadata().getUid())
                .withController(true).endOwnerReference().endMetadata().addToData("greeting", "hello").build()).create();
        for (String secret : List.of("user", "admin")) {
            client.secrets().inNamespace(namespace).resource(secret(name, secret, null)).create();
        }
    }

    private static io.fabric8.kubernetes.api.model.Secret secret(String primary, String name, String shard) {
        var metadata = new SecretBuilder().withNewMetadata().withName(primary + "-" + name)
                .addToLabels("app.kubernetes.io/instance", primary);
        if (shard != null) metadata.addToLabels(ShardLabels.SHARD, shard);
        return metadata.endMetadata().addToStringData("password", "x").build();
    }

    private List<GenericKubernetesResource> primaries() {
        return client.genericKubernetesResources(API_VERSION, KIND).inNamespace(namespace).list().getItems();
    }

    private List<GenericKubernetesResource> draining() {
        return primaries().stream().filter(p -> p.getMetadata().getLabels() != null
                && p.getMetadata().getLabels().containsKey(ShardLabels.DRAIN)).toList();
    }

    /** The primary's ConfigMaps (by owner reference) and Secrets (by the label naming it), as the bundle maps them. */
    private List<HasMetadata> secondariesOf(GenericKubernetesResource primary) {
        String name = primary.getMetadata().getName();
        List<HasMetadata> secondaries = new ArrayList<>();
        client.configMaps().inNamespace(namespace).list().getItems().stream()
                .filter(c -> c.getMetadata().getOwnerReferences().stream().anyMatch(o -> o.getUid().equals(primary.getMetadata().getUid())))
                .forEach(secondaries::add);
        secondaries.addAll(client.secrets().inNamespace(namespace).withLabel("app.kubernetes.io/instance", name).list().getItems());
        return secondaries;
    }

    private static String owner(HasMetadata object) {
        return object.getMetadata().getLabels() == null ? null : object.getMetadata().getLabels().get(ShardLabels.SHARD);
    }

    private static long version(HasMetadata object) {
        return Long.parseLong(object.getMetadata().getResourceVersion());
    }
}
