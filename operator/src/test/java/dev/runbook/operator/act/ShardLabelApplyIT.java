package dev.runbook.operator.act;

import dev.runbook.engine.apply.Outcome;
import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.operator.kube.EventWriter;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.shard.ShardLabels;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.Actions;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Primary;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A shard member's applies carry its label from the object's create (docs/sharding.md#secondaries), and
 * do not fight it: applying again changes nothing; after the sharder moved the object to another member
 * (a merge patch of the label by its own field manager), that member's first apply takes the field over
 * with the same value, once, and the next changes nothing.
 */
@RunbookIT(crds = "src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml")
class ShardLabelApplyIT {
    static final PrimaryKind WEB_APP = new PrimaryKind(new Kind("test.runbook.dev/v1", "WebApp"), "webapps", true);
    static final Instant NOW = Instant.parse("2026-12-05T09:00:00Z");
    static TestCluster cluster;
    static KubeApi api;
    @TestNamespace("stamp")
    String namespace;

    @BeforeAll
    static void register() {
        api = new KubeApi(cluster.client());
        api.register(WEB_APP);
    }

    @Test
    void theLabelComesWithTheCreateAndAMoveIsTakenOverOnce() {
        Primary app = webApp("shop");
        Action config = configOf("shop", "hi");

        assertThat(member("replica-a").apply(config, app, NOW)).isEqualTo(Outcome.CREATED);
        assertThat(configMap("shop-config").getMetadata().getLabels()).containsEntry(ShardLabels.SHARD, "replica-a").containsEntry("app", "shop");
        assertThat(member("replica-a").apply(config, app, NOW)).as("the label is the apply's own: nothing to send").isEqualTo(Outcome.NONE);

        moveAsTheSharder("shop-config", "replica-b");
        Outcome takeover = member("replica-b").apply(config, app, NOW);
        // A real API server moves the label's field to the merge patch's manager, so the apply takes it back (one write);
        // the embedded server's apply shim keeps field ownership through a merge patch, so there is nothing to take back.
        if (!cluster.isMock()) assertThat(takeover).as("the new owner takes the field over, same value").isEqualTo(Outcome.UPDATED);
        assertThat(configMap("shop-config").getMetadata().getLabels()).containsEntry(ShardLabels.SHARD, "replica-b");
        assertThat(member("replica-b").apply(config, app, NOW)).isEqualTo(Outcome.NONE);
    }

    @Test
    void aCycleOfTheNewOwnerLeavesTheSharderSLabelWhereItIs() {
        Primary app = webApp("cart");
        Action config = configOf("cart", "hi");
        assertThat(cycle(member("replica-a"), config, app)).isEqualTo(Outcome.CREATED);
        assertThat(cycle(member("replica-a"), config, app)).as("as cached: nothing to send").isEqualTo(Outcome.NONE);

        moveAsTheSharder("cart-config", "replica-b");
        String moved = configMap("cart-config").getMetadata().getResourceVersion();

        // The label's field is the sharder's now (on a real API server): the new owner's cycle sends nothing for it.
        assertThat(cycle(member("replica-b"), config, app)).as("the new owner's cycle after the sharder's move").isEqualTo(Outcome.NONE);
        assertThat(configMap("cart-config").getMetadata().getResourceVersion()).isEqualTo(moved);
        // A change of its own is still applied, and takes the label along.
        Action changed = configOf("cart", "hello");
        assertThat(cycle(member("replica-b"), changed, app)).isEqualTo(Outcome.UPDATED);
        assertThat(configMap("cart-config").getMetadata().getLabels()).containsEntry(ShardLabels.SHARD, "replica-b");
    }

    /** One cycle's apply, compared with the object as an informer holding it would: read from the API server. */
    private Outcome cycle(Actor actor, Action action, Primary app) {
        InformerCaches asServed = new InformerCaches() {
            @Override public boolean covers(ObjectRef ref) { return ref.getKind().equals("ConfigMap"); }
            @Override public Optional<Map<String, Object>> get(ObjectRef ref) { return api.get(ref); }
        };
        var cached = CachedObjects.of(new Observation(app, List.of(), NOW), asServed);
        var result = actor.act(List.of(new PlannedAction(action, List.of("Config"))), app, cached, NOW);
        return result.applied().get(0).outcome();
    }

    private Actor member(String name) {
        return new Actor(api, new EventWriter(cluster.client()), "runbook-test", dev.runbook.operator.error.ConflictRetry.DEFAULT,
                Map.of(ShardLabels.SHARD, name));
    }

    private Primary webApp(String name) {
        return new Primary(api.create(Map.of("apiVersion", "test.runbook.dev/v1", "kind", "WebApp",
                "metadata", Map.of("name", name, "namespace", namespace), "spec", Map.of())));
    }

    /** The apply of the app's ConfigMap, {@code APP-config}, labelled with the app and holding {@code greeting}. */
    private Action configOf(String app, String greeting) {
        return Actions.apply(Map.of("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", Map.of("name", app + "-config", "namespace", namespace, "labels", Map.of("app", app)),
                "data", Map.of("greeting", greeting)));
    }

    /** What the sharder writes to move a secondary: a merge patch of the shard label by its own field manager. */
    private void moveAsTheSharder(String configMap, String member) {
        cluster.client().configMaps().inNamespace(namespace).withName(configMap).patch(
                new PatchContext.Builder().withPatchType(PatchType.JSON_MERGE).withFieldManager("runbook-sharder").build(),
                "{\"metadata\":{\"labels\":{\"" + ShardLabels.SHARD + "\":\"" + member + "\"}}}");
    }

    private ConfigMap configMap(String name) {
        return cluster.client().configMaps().inNamespace(namespace).withName(name).get();
    }
}
