package dev.runbook.operator.act;

import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.engine.apply.Outcome;
import dev.runbook.operator.error.ConflictRetry;
import dev.runbook.operator.error.ErrorMapping;
import dev.runbook.operator.error.Failure;
import dev.runbook.operator.error.Reasons;
import dev.runbook.operator.error.TemporaryException;
import dev.runbook.operator.kube.EventWriter;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.kube.MissingNamespaceException;
import dev.runbook.operator.testkit.CountingClient;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.Actions;
import dev.runbook.rules.fact.Primary;
import dev.runbook.rules.fact.Resource;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.runbook.operator.testkit.Objects.at;
import static dev.runbook.operator.testkit.Objects.condition;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Each action applied through the API server: idempotent, with outcomes measured by resourceVersion. */
@RunbookIT(crds = "src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml")
class ActorIT {
    static final PrimaryKind WEB_APP = new PrimaryKind(new Kind("test.runbook.dev/v1", "WebApp"), "webapps", true);
    static final Instant T1 = Instant.parse("2026-11-30T09:00:00Z");
    static final Instant T2 = Instant.parse("2026-11-30T09:05:00Z");
    static final Instant T3 = Instant.parse("2026-11-30T09:10:00Z");

    static TestCluster cluster;
    static KubeApi api;
    @TestNamespace("actor")
    String namespace;
    Actor actor;
    Primary app;

    @BeforeAll
    static void register() {
        api = new KubeApi(cluster.client());
        api.register(WEB_APP);
    }

    @BeforeEach
    void createApp() {
        actor = new Actor(api, new EventWriter(cluster.client()), "runbook-test");
        app = new Primary(api.create(Map.of("apiVersion", "test.runbook.dev/v1", "kind", "WebApp",
                "metadata", Map.of("name", "shop", "namespace", namespace), "spec", Map.of("greeting", "hi"))));
    }

    private Map<String, Object> config(String greeting) {
        return Map.of("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", Map.of("name", "shop-config", "namespace", namespace), "data", Map.of("greeting", greeting));
    }

    private ConfigMap configMap() {
        return cluster.client().configMaps().inNamespace(namespace).withName("shop-config").get();
    }

    private Map<String, Object> appNow() {
        return api.get(app.getRef()).orElseThrow();
    }

    private Outcome apply(Action action, Instant now) {
        return actor.apply(action, app, now);
    }

    @Test
    void applyCreatesThenChangesNothingThenUpdates() {
        assertThat(apply(Actions.apply(config("hi")), T1)).isEqualTo(Outcome.CREATED);
        ConfigMap created = configMap();
        assertThat(created.getData()).containsEntry("greeting", "hi");
        assertThat(created.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(o -> assertThat(o.getUid()).isEqualTo(app.getUid()));

        assertThat(apply(Actions.apply(config("hi")), T1)).isEqualTo(Outcome.NONE);
        assertThat(configMap().getMetadata().getResourceVersion()).isEqualTo(created.getMetadata().getResourceVersion());

        assertThat(apply(Actions.apply(config("hello")), T1)).isEqualTo(Outcome.UPDATED);
        assertThat(configMap().getData()).containsEntry("greeting", "hello");
        assertThat(configMap().getMetadata().getResourceVersion()).isNotEqualTo(created.getMetadata().getResourceVersion());
    }

    @Test
    void anApplyOfAnObjectNoInformerHoldsIsSentWithoutAReadWhenAnInformerCoversItsKind() {
        CountingClient counting = new CountingClient(cluster);
        try (KubernetesClient client = counting.client()) {
            Actor counted = new Actor(new KubeApi(client), new EventWriter(client), "runbook-test");
            InformerCaches noConfigMaps = new InformerCaches() {
                @Override public boolean covers(dev.runbook.rules.fact.ObjectRef ref) { return ref.getKind().equals("ConfigMap"); }
                @Override public java.util.Optional<Map<String, Object>> get(dev.runbook.rules.fact.ObjectRef ref) {
                    return java.util.Optional.empty();
                }
            };
            CachedObjects cached = CachedObjects.of(new dev.runbook.engine.decide.Observation(app, List.of(), T1), noConfigMaps);
            counting.drain();

            ActResult result = counted.act(List.of(new PlannedAction(Actions.apply(config("hi")), List.of("Config"))), app, cached, T1);

            assertThat(result.applied()).singleElement().satisfies(a -> assertThat(a.outcome()).isEqualTo(Outcome.CREATED));
            assertThat(counting.drain()).as("one apply, no GET first").noneMatch(r -> r.startsWith("GET "))
                    .anyMatch(r -> r.startsWith("PATCH ") && r.endsWith("/configmaps/shop-config"));
            assertThat(configMap().getData()).containsEntry("greeting", "hi");

            // Not covered (no informer of the kind): read first, as before, to tell CREATED from UPDATED.
            CachedObjects uncovered = CachedObjects.of(new dev.runbook.engine.decide.Observation(app, List.of(), T1));
            counting.drain();
            counted.act(List.of(new PlannedAction(Actions.apply(config("hello")), List.of("Config"))), app, uncovered, T1);
            assertThat(counting.drain()).anyMatch(r -> r.equals("GET /api/v1/namespaces/" + namespace + "/configmaps/shop-config"));
        }
    }

    @Test
    void theInformersAreToldOfEveryWriteWithTheVersionItReplacedSoTheNextCycleSeesIt() {
        List<List<Object>> told = new java.util.ArrayList<>();
        Map<String, Object>[] held = new Map[1];
        InformerCaches recording = new InformerCaches() {
            @Override public boolean covers(dev.runbook.rules.fact.ObjectRef ref) { return ref.getKind().equals("ConfigMap"); }
            @Override public java.util.Optional<Map<String, Object>> get(dev.runbook.rules.fact.ObjectRef ref) {
                return java.util.Optional.ofNullable(held[0]);
            }
            @Override public void written(dev.runbook.rules.fact.ObjectRef ref, Map<String, Object> before, Map<String, Object> after) {
                told.add(java.util.Arrays.asList(ref.getName(), before == null ? null : dev.runbook.operator.kube.Maps.resourceVersion(before),
                        dev.runbook.operator.kube.Maps.resourceVersion(after)));
            }
        };
        Observation observed = new Observation(app, List.of(), T1);

        // A create: nothing before it, the informer is handed the object as the API server answered.
        actor.act(List.of(new PlannedAction(Actions.apply(config("hi")), List.of("Config"))), app, CachedObjects.of(observed, recording), T1);
        String created = configMap().getMetadata().getResourceVersion();
        assertThat(told).containsExactly(java.util.Arrays.asList("shop-config", null, created));

        // An update of the cached version: the informer is told which version the write replaced.
        held[0] = api.get(dev.runbook.rules.fact.ObjectRef.of("v1", "ConfigMap", namespace, "shop-config")).orElseThrow();
        told.clear();
        actor.act(List.of(new PlannedAction(Actions.apply(config("hello")), List.of("Config"))), app, CachedObjects.of(observed, recording), T1);
        assertThat(told).containsExactly(List.of("shop-config", created, configMap().getMetadata().getResourceVersion()));

        // Nothing to write: nothing told.
        held[0] = api.get(dev.runbook.rules.fact.ObjectRef.of("v1", "ConfigMap", namespace, "shop-config")).orElseThrow();
        told.clear();
        actor.act(List.of(new PlannedAction(Actions.apply(config("hello")), List.of("Config"))), app, CachedObjects.of(observed, recording), T1);
        assertThat(told).isEmpty();
    }

    @Test
    void aWriteIsToldWithTheVersionItWasComputedFromNotWithWhatTheInformerHoldsWhenTheAnswerComes() {
        List<String> toldBefore = new java.util.ArrayList<>();
        java.util.concurrent.atomic.AtomicInteger looks = new java.util.concurrent.atomic.AtomicInteger();
        // The informer holds no ConfigMap when the cycle decides to create it; by the time the API server's
        // answer is handed over, its watch has delivered the create and a later change by someone else.
        Map<String, Object> newer = Map.of("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", Map.of("name", "shop-config", "namespace", namespace, "resourceVersion", "999999999"));
        InformerCaches watchAhead = new InformerCaches() {
            @Override public boolean covers(dev.runbook.rules.fact.ObjectRef ref) { return ref.getKind().equals("ConfigMap"); }
            @Override public java.util.Optional<Map<String, Object>> get(dev.runbook.rules.fact.ObjectRef ref) {
                return looks.getAndIncrement() == 0 ? java.util.Optional.empty() : java.util.Optional.of(newer);
            }
            @Override public void written(dev.runbook.rules.fact.ObjectRef ref, Map<String, Object> before, Map<String, Object> after) {
                toldBefore.add(before == null ? "nothing" : dev.runbook.operator.kube.Maps.resourceVersion(before));
            }
        };

        ActResult result = actor.act(List.of(new PlannedAction(Actions.apply(config("hi")), List.of("Config"))), app,
                CachedObjects.of(new Observation(app, List.of(), T1), watchAhead), T1);

        assertThat(result.applied()).singleElement().satisfies(a -> assertThat(a.outcome()).isEqualTo(Outcome.CREATED));
        // Told it replaced the newer version, an informer would hand out the older object it answered with.
        assertThat(toldBefore).as("a create, whatever the informer holds by now").containsExactly("nothing");
    }

    @Test
    void anUnchangedApplyIsNotSentNorReportedWhenAnotherWriterMovedTheObjectSinceItWasCached() {
        CountingClient counting = new CountingClient(cluster);
        try (KubernetesClient client = counting.client()) {
            Actor counted = new Actor(new KubeApi(client), new EventWriter(client), "runbook-test");
            counted.apply(Actions.apply(config("hi")), app, T1);
            Resource asCached = new Resource(api.get(dev.runbook.rules.fact.ObjectRef.of("v1", "ConfigMap", namespace, "shop-config")).orElseThrow());
            // Another writer (for a StatefulSet: its controller writing status) moves the resourceVersion.
            cluster.client().configMaps().inNamespace(namespace).withName("shop-config")
                    .edit(c -> new ConfigMapBuilder(c).editMetadata().addToLabels("seen-by", "someone-else").endMetadata().build());
            CachedObjects cached = CachedObjects.of(new dev.runbook.engine.decide.Observation(app, List.of(asCached), T2));
            counting.drain();

            ActResult result = counted.act(List.of(new PlannedAction(Actions.apply(config("hi")), List.of("Config"))), app, cached, T2);

            assertThat(result.applied()).singleElement().satisfies(a -> assertThat(a.outcome()).isEqualTo(Outcome.NONE));
            assertThat(counting.drain()).as("the fields it owns are already as desired: nothing sent").isEmpty();
        }
    }

    @Test
    void applyLeavesFieldsItDoesNotListAlone() {
        cluster.client().configMaps().inNamespace(namespace).resource(new ConfigMapBuilder().withNewMetadata()
                .withName("shop-config").addToLabels("owner", "someone-else").endMetadata()
                .addToData("other", "kept").build()).create();

        assertThat(apply(Actions.apply(config("hi")), T1)).isEqualTo(Outcome.UPDATED);
        assertThat(configMap().getData()).containsEntry("greeting", "hi").containsEntry("other", "kept");
        assertThat(configMap().getMetadata().getLabels()).containsEntry("owner", "someone-else");
    }

    @Test
    void deleteToleratesAnObjectThatIsGone() {
        apply(Actions.apply(config("hi")), T1);
        Resource cm = new Resource(api.get(dev.runbook.rules.fact.ObjectRef.of("v1", "ConfigMap", namespace, "shop-config")).orElseThrow());

        assertThat(apply(Actions.delete(cm), T1)).isEqualTo(Outcome.DELETED);
        assertThat(configMap()).isNull();
        assertThat(apply(Actions.delete(cm), T1)).isEqualTo(Outcome.NONE);
    }

    /**
     * A decision made from an older observation: the object of that name has been deleted and made again
     * (a pod its StatefulSet recreated) since. The new object is not the one the rules decided to delete.
     */
    @Test
    void aDeleteLeavesAnotherObjectOfTheSameNameAlone() {
        apply(Actions.apply(config("hi")), T1);
        Resource observed = new Resource(api.get(dev.runbook.rules.fact.ObjectRef.of("v1", "ConfigMap", namespace, "shop-config")).orElseThrow());
        cluster.client().configMaps().inNamespace(namespace).withName("shop-config").delete();
        await().atMost(java.time.Duration.ofSeconds(30)).until(() -> configMap() == null);
        apply(Actions.apply(config("again")), T1);
        String recreated = configMap().getMetadata().getUid();
        assertThat(recreated).isNotEqualTo(observed.getUid());

        assertThat(apply(Actions.delete(observed), T1)).isEqualTo(Outcome.NONE);
        assertThat(configMap().getMetadata().getUid()).isEqualTo(recreated);
    }

    @Test
    void conditionsAreMergedByTypeAndTheirTimeMovesOnlyWithTheirStatus() {
        assertThat(apply(Actions.setCondition(app, "Other", "True", "Kept", ""), T1)).isEqualTo(Outcome.UPDATED);
        assertThat(apply(Actions.setCondition(app, "Ready", "True", "Ok", "first"), T1)).isEqualTo(Outcome.UPDATED);
        String version = (String) at(appNow(), "metadata.resourceVersion");

        assertThat(apply(Actions.setCondition(app, "Ready", "True", "Ok", "first"), T2)).isEqualTo(Outcome.NONE);
        assertThat((String) at(appNow(), "metadata.resourceVersion")).isEqualTo(version);

        assertThat(apply(Actions.setCondition(app, "Ready", "True", "Ok", "second"), T2)).isEqualTo(Outcome.UPDATED);
        assertThat(condition(appNow(), "Ready")).containsEntry("message", "second")
                .containsEntry("lastTransitionTime", T1.toString());

        assertThat(apply(Actions.setCondition(app, "Ready", "False", "Broken", "third"), T3)).isEqualTo(Outcome.UPDATED);
        assertThat(condition(appNow(), "Ready")).containsEntry("status", "False")
                .containsEntry("lastTransitionTime", T3.toString());
        assertThat(condition(appNow(), "Other")).containsEntry("reason", "Kept");
        assertThat((Map<String, Object>) at(appNow(), "spec")).isEqualTo(Map.of("greeting", "hi"));
    }

    @Test
    void statusFieldsAndLabelsAreSetAndRemoved() {
        assertThat(apply(Actions.setStatus(app, "backup.last", "b-1"), T1)).isEqualTo(Outcome.UPDATED);
        assertThat(apply(Actions.setStatus(app, "phase", "Serving"), T1)).isEqualTo(Outcome.UPDATED);
        assertThat(apply(Actions.setStatus(app, "backup.last", null), T1)).isEqualTo(Outcome.UPDATED);
        assertThat((Map<String, Object>) at(appNow(), "status")).containsEntry("phase", "Serving").doesNotContainKey("backup.last");
        assertThat((Object) at(appNow(), "status.backup.last")).isNull();

        assertThat(apply(Actions.label(app, "tier", "gold"), T1)).isEqualTo(Outcome.UPDATED);
        assertThat(apply(Actions.label(app, "tier", "gold"), T1)).isEqualTo(Outcome.NONE);
        assertThat((String) at(appNow(), "metadata.labels.tier")).isEqualTo("gold");
        assertThat(apply(Actions.removeLabel(app, "tier"), T1)).isEqualTo(Outcome.UPDATED);
        assertThat((Object) at(appNow(), "metadata.labels.tier")).isNull();
        assertThat(apply(Actions.removeLabel(app, "tier"), T1)).isEqualTo(Outcome.NONE);
    }

    @Test
    void aMergePatchOfAMissingObjectFailsThePlanThereAsAPermanentFailure() {
        Resource missing = new Resource(Map.of("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", Map.of("name", "nowhere", "namespace", namespace)));
        PlannedAction first = new PlannedAction(Actions.setStatus(app, "phase", "A"), List.of("First"));
        PlannedAction patch = new PlannedAction(Actions.mergePatch(missing, "data.x", "y"), List.of("Patch it"));
        PlannedAction after = new PlannedAction(Actions.setStatus(app, "next", "B"), List.of("After"));

        ActResult result = actor.act(List.of(first, patch, after), app, T1);

        assertThat(result.applied()).extracting(AppliedAction::outcome).containsExactly(Outcome.UPDATED);
        assertThat(result.failed()).isSameAs(patch);
        Failure failure = ErrorMapping.classify(result.failure());
        assertThat(failure.kind()).isEqualTo(Failure.Kind.PERMANENT);
        assertThat(failure.reason()).isEqualTo(Reasons.ACTION_FAILED);
        assertThat(failure.describe()).startsWith("mergePatch ConfigMap " + namespace + "/nowhere").endsWith("(rules: Patch it)");
        assertThat((Object) at(appNow(), "status.next")).isNull();
    }

    @Test
    void aNamespacedObjectWithoutANamespaceNeverReachesTheApiServer() {
        // What the engine and the plan check would have stopped (a policy calling ConfigMap cluster-scoped, say).
        Map<String, Object> stray = Map.of("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", Map.of("name", "stray-config"), "data", Map.of("x", "y"));
        PlannedAction write = new PlannedAction(Actions.apply(stray), List.of("Write a stray"));

        ActResult result = actor.act(List.of(write), app, T1);

        assertThat(result.failed()).isSameAs(write);
        Failure failure = ErrorMapping.classify(result.failure());
        assertThat(failure.kind()).isEqualTo(Failure.Kind.PERMANENT);
        assertThat(failure.describe()).startsWith("apply ConfigMap ")
                .contains("asked for by rule 'Write a stray': v1 ConfigMap stray-config is namespaced but names no namespace",
                        "set metadata.namespace in the rule or template");
        String defaultNamespace = cluster.client().getNamespace() == null ? "default" : cluster.client().getNamespace();
        assertThat(cluster.client().configMaps().inNamespace(defaultNamespace).withName("stray-config").get()).isNull();
        // The same for every request about one object; a cluster-scoped kind needs no namespace.
        var ref = dev.runbook.rules.fact.ObjectRef.of("v1", "ConfigMap", "", "stray-config");
        assertThatThrownBy(() -> api.delete(ref)).isInstanceOf(MissingNamespaceException.class);
        assertThatThrownBy(() -> api.mergePatch(ref, Map.of("data", Map.of("x", "z")), "runbook-test"))
                .isInstanceOf(MissingNamespaceException.class);
        assertThat(api.isNamespaced("v1", "Namespace")).isFalse();
        assertThat(api.isNamespaced("rbac.authorization.k8s.io/v1", "ClusterRoleBinding")).isFalse();
        assertThat(api.isNamespaced("test.runbook.dev/v1", "WebApp")).isTrue();
    }

    @Test
    void aConflictIsRetriedOnFreshState() {
        assumeTrue(cluster.isMock(), "409s are injected through the mock server");
        String statusPath = "/apis/test.runbook.dev/v1/namespaces/" + namespace + "/webapps/shop/status?fieldManager=runbook-test";
        cluster.failNext("PATCH", statusPath, 409, 1);

        assertThat(apply(Actions.setCondition(app, "Ready", "True", "Ok", ""), T1)).isEqualTo(Outcome.UPDATED);
        assertThat(condition(appNow(), "Ready")).containsEntry("status", "True");

        cluster.failNext("PATCH", statusPath, 409, ConflictRetry.DEFAULT_ATTEMPTS);
        assertThatThrownBy(() -> apply(Actions.setCondition(app, "Ready", "False", "No", ""), T1))
                .isInstanceOfSatisfying(TemporaryException.class,
                        e -> assertThat(e.failure().reason()).isEqualTo(Reasons.CONFLICT));
    }

    @Test
    void eventsAreRecordedAndAggregated() {
        assertThat(apply(Actions.warning(app, "FailoverStarted", "promoting pg-2"), T1)).isEqualTo(Outcome.CREATED);
        assertThat(apply(Actions.warning(app, "FailoverStarted", "promoting pg-2"), T2)).isEqualTo(Outcome.CREATED);

        List<Event> events = cluster.client().v1().events().inNamespace(namespace).list().getItems();
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.getType()).isEqualTo("Warning");
            assertThat(e.getReason()).isEqualTo("FailoverStarted");
            assertThat(e.getCount()).isEqualTo(2);
            assertThat(e.getInvolvedObject().getUid()).isEqualTo(app.getUid());
            assertThat(e.getLastTimestamp()).isEqualTo(T2.toString());
            assertThat(e.getSource().getComponent()).isEqualTo(EventWriter.COMPONENT);
        });
    }

    @Test
    void requeueChangesNothing() {
        assertThat(apply(Actions.requeue(app, "10s"), T1)).isEqualTo(Outcome.NONE);
        GenericKubernetesResource unchanged = cluster.client().genericKubernetesResources("test.runbook.dev/v1", "WebApp")
                .inNamespace(namespace).withName("shop").get();
        assertThat(unchanged.getMetadata().getResourceVersion()).isEqualTo(app.getResourceVersion());
    }
}
