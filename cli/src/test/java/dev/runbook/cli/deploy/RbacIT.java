package dev.runbook.cli.deploy;

import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.rules.action.Apply;
import dev.runbook.rules.fact.Primary;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What the service account of deploy/ can and cannot do, asked of a real control plane: deploy/'s
 * ServiceAccount, Roles and RoleBindings are applied (in two fresh namespaces standing for
 * runbook-system and the namespace the policy grants), then a SelfSubjectAccessReview is sent as that
 * service account (impersonated) for each question. Skipped, with the reason, on the embedded server,
 * which has no RBAC; .ci/run runs it against testenv/.
 */
@Tag("real-api-server")
@RunbookIT
class RbacIT {
    static TestCluster cluster;
    static KubernetesClient asOperator;
    static String own;
    static String granted;
    /** The ClusterRole (and its binding) of deploy/20-rbac.yaml that lets the operator read Nodes. */
    static final String READ_NODES = "runbook-operator-read-nodes";
    static final List<GenericKubernetesResource> clusterScoped = new java.util.ArrayList<>();

    @BeforeAll
    static void applyDeploysRbac() throws IOException {
        cluster.requireRealApiServer("RBAC");
        own = cluster.newNamespace("rbac-own");
        granted = cluster.newNamespace("rbac-granted");
        Path deploy = DeployManifestsTest.projectRoot().resolve("deploy");
        for (String file : List.of("20-rbac.yaml", "30-rbac-own-namespace.yaml")) {
            try (Reader in = Files.newBufferedReader(deploy.resolve(file))) {
                for (Object document : new Yaml().loadAll(in)) {
                    String json = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(document)
                            .replace("\"namespace\":\"" + DeployManifestsTest.NAMESPACE + "\"", "\"namespace\":\"" + own + "\"")
                            .replace("\"namespace\":\"databases\"", "\"namespace\":\"" + granted + "\"")
                            // Cluster-scoped objects outlive the test's namespaces: named after them, deleted at the end.
                            .replace("\"name\":\"" + READ_NODES + "\"", "\"name\":\"" + READ_NODES + "-" + own + "\"");
                    GenericKubernetesResource object = cluster.client().getKubernetesSerialization()
                            .unmarshal(json, GenericKubernetesResource.class);
                    if (object.getMetadata().getNamespace() == null) clusterScoped.add(object);
                    cluster.client().resource(object).create();
                }
            }
        }
        String user = "system:serviceaccount:" + own + ":runbook-operator";
        asOperator = new KubernetesClientBuilder().withConfig(new ConfigBuilder(cluster.client().getConfiguration())
                .withImpersonateUsername(user)
                .withImpersonateGroups("system:serviceaccounts", "system:serviceaccounts:" + own, "system:authenticated")
                .build()).build();
        // The API server's RBAC authorizer reads Roles and bindings through an informer: a binding just
        // created is not seen at once, and on a loaded machine the first reviews would be answered from
        // before it. Wait until one grant of each binding (in the granted namespace, in the own namespace,
        // cluster-wide) is seen; the questions are asked of a settled authorizer.
        await().atMost(TestCluster.CONVERGE).until(() -> allowed("patch", "", "pods", "granted")
                && allowed("list", "", "configmaps", "own") && allowed("get", "", "nodes", "*"));
    }

    @AfterAll
    static void cleanUp() {
        if (asOperator != null) asOperator.close();
        for (GenericKubernetesResource object : clusterScoped) cluster.client().resource(object).delete();
    }

    private static boolean allowed(String verb, String group, String resource, String namespace) {
        SelfSubjectAccessReview review = new SelfSubjectAccessReviewBuilder().withNewSpec().withNewResourceAttributes()
                .withVerb(verb).withGroup(group).withResource(resource)
                .withNamespace(namespace.equals("*") ? null : namespace.equals("own") ? own : namespace.equals("granted") ? granted : namespace)
                .endResourceAttributes().endSpec().build();
        return asOperator.authorization().v1().selfSubjectAccessReview().create(review).getStatus().getAllowed();
    }

    /**
     * The runbook makes each cluster's instances' ServiceAccount, Role and RoleBinding. RBAC lets the
     * operator create and bind that Role without the escalate or bind verb because it holds every right
     * the Role grants: the objects of the bundle's first cycle for a new cluster, created as the
     * operator, are accepted; a Role granting one right more (reading Secrets) is forbidden.
     */
    @Test
    void theOperatorCreatesAndBindsTheInstancesRoleWithinItsOwnRights() {
        CompiledBundle bundle = BundleCompiler.compile(BundleLoader.load(DeployManifestsTest.projectRoot().resolve("runbooks/postgres-cluster")));
        Primary cluster = new Primary(Map.of("apiVersion", "postgres.runbook.dev/v1alpha1", "kind", "PostgresCluster",
                "metadata", Map.of("name", "pg", "namespace", granted, "uid", "6f1f5c1e-0000-4000-8000-000000000001"),
                "spec", Map.of("instances", 3, "image", "postgres:16.4")));
        Decision first = DecisionCycle.run(bundle, new Observation(cluster, List.of(), java.time.Instant.now()));
        List<Map<String, Object>> made = first.applicableActions().stream().map(PlannedAction::action)
                .filter(a -> a instanceof Apply && List.of("ServiceAccount", "Role", "RoleBinding").contains(a.getTarget().getKind()))
                .map(a -> ((Apply) a).getObject()).toList();
        assertThat(made).extracting(o -> o.get("kind")).containsExactly("ServiceAccount", "Role", "RoleBinding");
        for (Map<String, Object> object : made) {
            GenericKubernetesResource resource = cluster().getKubernetesSerialization().convertValue(object, GenericKubernetesResource.class);
            assertThat(asOperator.resource(resource).create()).as("%s created as the operator", object.get("kind")).isNotNull();
        }
        Map<String, Object> wider = new java.util.LinkedHashMap<>(made.get(1));
        wider.put("metadata", Map.of("name", "pg-wider", "namespace", granted));
        List<Object> rules = new java.util.ArrayList<>((List<?>) wider.get("rules"));
        rules.add(Map.of("apiGroups", List.of(""), "resources", List.of("secrets"), "verbs", List.of("get")));
        wider.put("rules", rules);
        GenericKubernetesResource widerRole = cluster().getKubernetesSerialization().convertValue(wider, GenericKubernetesResource.class);
        assertThatThrownBy(() -> asOperator.resource(widerRole).create()).isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("attempting to grant RBAC permissions not currently held");
    }

    private static KubernetesClient cluster() {
        return cluster.client();
    }

    /** {@code own}: the operator's namespace; {@code granted}: the policy's; {@code *}: all namespaces (or cluster-scoped). */
    @ParameterizedTest(name = "{0} {2} in {3}: {4}")
    @CsvSource(delimiter = '|', textBlock = """
            create | batch                     | jobs                     | kube-system | false
            create | apps                      | statefulsets             | kube-system | false
            delete | ''                        | pods                     | kube-system | false
            create | ''                        | configmaps               | kube-system | false
            create | batch                     | jobs                     | default     | false
            list   | ''                        | pods                     | *           | false
            create | rbac.authorization.k8s.io | clusterrolebindings      | *           | false
            create | ''                        | secrets                  | granted     | false
            get    | ''                        | secrets                  | granted     | false
            update | ''                        | configmaps               | own         | false
            patch  | ''                        | configmaps               | own         | false
            create | ''                        | configmaps               | own         | false
            delete | ''                        | configmaps               | own         | false
            list   | ''                        | configmaps               | own         | true
            watch  | ''                        | configmaps               | own         | true
            create | coordination.k8s.io       | leases                   | own         | true
            patch  | coordination.k8s.io       | leases                   | own         | true
            # --shards: the member Leases listed by the sharder; the primaries listed and labelled (runbook.dev/shard, drain)
            list   | coordination.k8s.io       | leases                   | own         | true
            list   | postgres.runbook.dev      | postgresclusters         | granted     | true
            patch  | postgres.runbook.dev      | postgresclusters         | granted     | true
            create | batch                     | jobs                     | own         | false
            patch  | ''                        | pods                     | granted     | true
            delete | ''                        | pods                     | granted     | true
            create | batch                     | jobs                     | granted     | true
            create | apps                      | statefulsets             | granted     | true
            patch  | postgres.runbook.dev      | postgresclusters/status  | granted     | true
            watch  | postgres.runbook.dev      | postgresclusters         | granted     | true
            create | ''                        | events                   | granted     | true
            create | ''                        | serviceaccounts          | granted     | true
            create | rbac.authorization.k8s.io | roles                    | granted     | true
            create | rbac.authorization.k8s.io | rolebindings             | granted     | true
            bind   | rbac.authorization.k8s.io | roles                    | granted     | false
            escalate | rbac.authorization.k8s.io | roles                  | granted     | false
            create | rbac.authorization.k8s.io | rolebindings             | kube-system | false
            create | ''                        | serviceaccounts          | default     | false
            get    | ''                        | nodes                    | *           | true
            list   | ''                        | nodes                    | *           | true
            watch  | ''                        | nodes                    | *           | true
            patch  | ''                        | nodes                    | *           | false
            update | ''                        | nodes                    | *           | false
            delete | ''                        | nodes                    | *           | false
            patch  | ''                        | nodes/status             | *           | false
            list   | ''                        | persistentvolumes        | *           | false
            list   | ''                        | namespaces               | *           | false
            """)
    void theServiceAccountCanDoWhatThePolicyGrantsAndNothingElse(String verb, String group, String resource, String namespace,
                                                                  boolean expected) {
        assertThat(allowed(verb, group, resource, namespace)).as("can %s %s/%s in %s", verb, group, resource, namespace)
                .isEqualTo(expected);
    }
}
