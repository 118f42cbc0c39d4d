package dev.runbook.operator.admission;

import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.operator.leader.LeaderElection;
import dev.runbook.operator.shard.HashRing;
import dev.runbook.operator.shard.Membership;
import dev.runbook.operator.shard.ShardLabels;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperationsBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The shard webhook on a real API server, served by the bundle webhook's server and certificate
 * ({@link BundleWebhook#serveShards}), called through a MutatingWebhookConfiguration shaped as
 * deploy/chart/templates/55-shard-webhook.yaml renders it (its Service reference turned into a loopback
 * URL, its namespace selector into the test's namespace): a new primary is created with its ring owner
 * among the members that hold their Lease, and unlabelled while none does; the Pods a StatefulSet
 * carrying a member's label makes are created with that label, its pod template untouched.
 */
@RunbookIT(crds = "src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml")
class ShardWebhookIT {
    static final String API_VERSION = "test.runbook.dev/v1";
    static final String KIND = "WebApp";
    static final PrimaryKind WEB_APPS = new PrimaryKind(new Kind(API_VERSION, KIND), "webapps", true);
    static TestCluster cluster;

    KubernetesClient client;
    @TestNamespace("system")
    String system;
    @TestNamespace("apps")
    String apps;
    String configuration;
    BundleWebhook webhook;
    final List<LeaderElection> leases = new ArrayList<>();
    Membership membership;

    @BeforeEach
    void serve() throws Exception {
        cluster.requireRealApiServer("admission webhooks");
        configuration = "runbook-shards-" + apps;
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        client.resource(configuration(port)).create();
        webhook = BundleWebhook.serve(client, system, new BundleWebhook.Settings(new InetSocketAddress("127.0.0.1", port),
                List.of("127.0.0.1"), "runbook-bundles-" + system, BundleWebhook.Settings.SECRET, BundleWebhook.Settings.BUDGET),
                Clock.systemUTC());
        membership = new Membership(client, system, TestCluster.LEADER_ELECTION, Clock.systemUTC());
        webhook.serveShards(new ShardAdmission(() -> List.of(WEB_APPS), membership::live, ShardAdmission.ownersFrom(client)),
                configuration);
    }

    @AfterEach
    void remove() {
        leases.forEach(LeaderElection::close);
        if (client != null && configuration != null) {
            client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(configuration).delete();
        }
        if (webhook != null) webhook.close();
    }

    @Test
    void aNewPrimaryIsCreatedWithItsRingOwnerAmongTheLiveMembers() {
        Set<String> members = Set.of("replica-a", "replica-b", "replica-c");
        members.forEach(this::holdLease);
        await().atMost(TestCluster.CONVERGE).until(() -> membership.live().equals(members));
        // The API server reads the configuration through a cache: wait until it calls the webhook.
        await().atMost(TestCluster.CONVERGE).until(() -> owner(create("probe-" + System.nanoTime())) != null);

        HashRing ring = HashRing.of(members);
        for (int i = 0; i < 12; i++) {
            GenericKubernetesResource created = create("app-" + i);
            assertThat(owner(created)).as("app-%d at create", i)
                    .isEqualTo(ring.ownerOf(ShardLabels.keyOf("test.runbook.dev", KIND, apps, "app-" + i)).orElseThrow());
        }
        assertThat(client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(configuration).get()
                .getWebhooks()).allSatisfy(w -> assertThat(w.getClientConfig().getCaBundle()).as("written by the operator").isNotBlank());

        leases.forEach(LeaderElection::close);
        await().atMost(TestCluster.CONVERGE).until(() -> membership.live().isEmpty());
        assertThat(owner(create("orphan"))).as("no live member: left for the sharder").isNull();
    }

    @Test
    void thePodsOfALabelledStatefulSetAreCreatedWithItsShard() {
        org.junit.jupiter.api.Assumptions.assumeTrue(cluster.runsPods(), "needs the StatefulSet controller (testenv)");
        await().atMost(TestCluster.CONVERGE).until(() -> owner(create("probe-" + System.nanoTime())) == null
                && podWebhookAnswers());
        StatefulSet created = client.apps().statefulSets().inNamespace(apps).resource(new StatefulSetBuilder()
                .withNewMetadata().withName("db").addToLabels(ShardLabels.SHARD, "replica-b").endMetadata()
                .withNewSpec().withReplicas(2).withServiceName("db")
                .withNewSelector().addToMatchLabels("app", "db").endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", "db").endMetadata()
                .withNewSpec().addNewContainer().withName("db").withImage("postgres:17").endContainer().endSpec().endTemplate()
                .endSpec().build()).create();

        await().atMost(TestCluster.CONVERGE).untilAsserted(() -> assertThat(client.pods().inNamespace(apps).withLabel("app", "db")
                .list().getItems()).hasSize(2).allSatisfy(pod -> assertThat(owner(pod.getMetadata().getLabels())).isEqualTo("replica-b")));
        assertThat(client.apps().statefulSets().inNamespace(apps).withName("db").get().getSpec().getTemplate().getMetadata().getLabels())
                .as("the template, untouched: no roll").isEqualTo(created.getSpec().getTemplate().getMetadata().getLabels());
    }

    /** A bare pod with a labelled controller named, to see that the API server calls the pods' webhook already. */
    private boolean podWebhookAnswers() {
        var owner = client.configMaps().inNamespace(apps).resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                .withNewMetadata().withName("owner-" + System.nanoTime()).addToLabels(ShardLabels.SHARD, "replica-a").endMetadata()
                .build()).create();
        Pod pod = client.pods().inNamespace(apps).resource(new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata()
                .withName("probe-" + System.nanoTime()).addNewOwnerReference().withApiVersion("v1").withKind("ConfigMap")
                .withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid()).withController(true).endOwnerReference()
                .endMetadata().withNewSpec().addNewContainer().withName("c").withImage("busybox").endContainer().endSpec().build()).create();
        client.pods().inNamespace(apps).withName(pod.getMetadata().getName()).withGracePeriod(0).delete();
        return "replica-a".equals(owner(pod.getMetadata().getLabels()));
    }

    private void holdLease(String member) {
        LeaderElection lease = membership.memberLease(LeaderElection.leaseClient(client, TestCluster.LEADER_ELECTION), member,
                new LeaderElection.Candidate() {
                    @Override public void lead() {}
                    @Override public void standBy() {}
                });
        lease.start();
        leases.add(lease);
    }

    private GenericKubernetesResource create(String name) {
        return client.genericKubernetesResources(API_VERSION, KIND).inNamespace(apps).resource(new GenericKubernetesResourceBuilder()
                .withApiVersion(API_VERSION).withKind(KIND).withNewMetadata().withName(name).endMetadata()
                .addToAdditionalProperties("spec", Map.of()).build()).create();
    }

    private static String owner(GenericKubernetesResource object) {
        return owner(object.getMetadata().getLabels());
    }

    private static String owner(Map<String, String> labels) {
        return labels == null ? null : labels.get(ShardLabels.SHARD);
    }

    /** As deploy/chart/templates/55-shard-webhook.yaml renders it, for this test's namespace and loopback port. */
    private io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration configuration(int port) {
        var builder = new MutatingWebhookConfigurationBuilder().withNewMetadata().withName(configuration).endMetadata();
        for (String hook : List.of("primaries", "pods")) {
            var rule = hook.equals("primaries")
                    ? new RuleWithOperationsBuilder().withApiGroups("test.runbook.dev").withApiVersions("*").withOperations("CREATE")
                            .withResources("webapps").withScope("Namespaced").build()
                    : new RuleWithOperationsBuilder().withApiGroups("").withApiVersions("v1").withOperations("CREATE")
                            .withResources("pods").withScope("Namespaced").build();
            builder.addToWebhooks(new MutatingWebhookBuilder().withName(hook + ".shards.runbook.dev")
                    .withAdmissionReviewVersions("v1").withSideEffects("None").withFailurePolicy("Ignore").withTimeoutSeconds(5)
                    .withReinvocationPolicy("Never").withRules(rule)
                    .withNamespaceSelector(new LabelSelectorBuilder().withMatchExpressions(new LabelSelectorRequirementBuilder()
                            .withKey("kubernetes.io/metadata.name").withOperator("In").withValues(apps).build()).build())
                    .withObjectSelector(new LabelSelectorBuilder().withMatchExpressions(new LabelSelectorRequirementBuilder()
                            .withKey(ShardLabels.SHARD).withOperator("DoesNotExist").build()).build())
                    .withNewClientConfig().withUrl("https://127.0.0.1:" + port + BundleWebhook.SHARD_PATH).endClientConfig()
                    .build());
        }
        return builder.build();
    }
}
