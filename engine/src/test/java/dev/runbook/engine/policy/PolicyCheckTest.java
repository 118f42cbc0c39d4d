package dev.runbook.engine.policy;

import dev.runbook.engine.TestBundles;
import dev.runbook.engine.check.PlanProblem;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.Observation;
import dev.runbook.rules.fact.Primary;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plan check under the administrator's policy: rules of the test bundles "reaching" (which keeps
 * to its primary's namespace) and "reaching-anywhere" (limits.namespaces: any) that bind cluster-admin,
 * run a Job in kube-system, write an object without a namespace, write an undeclared kind, or write to
 * a neighbouring namespace, each when the Store's spec.reach names it.
 */
class PolicyCheckTest {
    private static final Instant NOW = Instant.parse("2026-12-01T09:00:00Z");

    private static Decision decide(String bundle, String reach, Policy policy) {
        return DecisionCycle.run(TestBundles.compiled(bundle), observe(reach), policy);
    }

    /** Without a policy: the default one. */
    private static Decision decide(String bundle, String reach) {
        return DecisionCycle.run(TestBundles.compiled(bundle), observe(reach));
    }

    private static Observation observe(String reach) {
        Primary store = new Primary(Map.of("apiVersion", "example.runbook.dev/v1", "kind", "Store",
                "metadata", Map.of("name", "main", "namespace", "demo", "uid", "u-1"),
                "spec", Map.of("reach", reach)));
        return new Observation(store, List.of(), NOW);
    }

    private static Policy policy(String yaml) {
        return PolicyParser.parse("policy.yaml", yaml);
    }

    private static List<PlanProblem.Kind> refusals(Decision decision) {
        return decision.problems().stream().map(PlanProblem::kind).toList();
    }

    @Test
    void aClusterRoleBindingIsRefusedUnlessThePolicyAllowsClusterScopedBindings() {
        Decision refused = decide("reaching-anywhere", "cluster-admin");
        assertThat(refusals(refused)).containsExactly(PlanProblem.Kind.CLUSTER_SCOPED);
        assertThat(refused.problems().get(0).message())
                .contains("apply ClusterRoleBinding take-over is refused", "cluster-scoped", "bundles.reaching-anywhere.clusterScoped");
        assertThat(refused.actions()).singleElement().satisfies(a -> assertThat(a.action().getTarget().getNamespace()).isEmpty());

        Decision allowed = decide("reaching-anywhere", "cluster-admin", policy("""
                bundles:
                  reaching-anywhere:
                    clusterScoped: [ClusterRoleBinding]
                """));
        assertThat(allowed.problems()).isEmpty();
    }

    @Test
    void aJobInKubeSystemIsRefusedEvenWhenTheBundleAllowsAnyNamespace() {
        Decision decision = decide("reaching-anywhere", "kube-system");
        assertThat(refusals(decision)).containsExactly(PlanProblem.Kind.OTHER_NAMESPACE);
        assertThat(decision.problems().get(0).message()).contains("apply Job kube-system/host is refused",
                "namespace kube-system is outside what the default policy grants bundle reaching-anywhere");
    }

    @Test
    void anObjectWithoutANamespaceLandsInThePrimarysNamespaceNeverTheClientsDefault() {
        Decision decision = decide("reaching", "no-namespace");
        assertThat(decision.problems()).isEmpty();
        assertThat(decision.actions()).singleElement().satisfies(a -> {
            assertThat(a.action().getTarget().getNamespace()).isEqualTo("demo");
            assertThat(a.action().toMap()).extractingByKey("object").asString().contains("namespace=demo");
        });
    }

    @Test
    void aKindTheBundleDoesNotDeclareIsRefusedUnlessThePolicyListsIt() {
        assertThat(refusals(decide("reaching", "secret"))).containsExactly(PlanProblem.Kind.PROTECTED_KIND);
        assertThat(decide("reaching", "secret", policy("""
                defaults:
                  kinds: [Store, Secret]
                """)).problems()).isEmpty();
        // Group-qualified: the core group's secrets, not another group's.
        assertThat(decide("reaching", "secret", policy("""
                defaults:
                  kinds: [secrets]
                """)).problems()).isEmpty();
        Decision otherGroup = decide("reaching", "secret", policy("""
                defaults:
                  kinds: [secrets.example.dev, jobs.batch]
                """));
        assertThat(refusals(otherGroup)).containsExactly(PlanProblem.Kind.PROTECTED_KIND);
        assertThat(otherGroup.problems().get(0).message()).contains("kind Secret (v1) is not one",
                "[Store.example.runbook.dev, jobs.batch, secrets.example.dev]", "group-qualified (e.g. secret;");
        // The bundle narrows: a kind it protects stays refused whatever the policy lists.
        assertThat(refusals(decide("reaching", "cluster-admin", policy("""
                bundles:
                  reaching:
                    clusterScoped: [ClusterRoleBinding, Namespace]
                """)))).isEmpty();
    }

    @Test
    void theBundleCanOnlyNarrowTheNamespacesThePolicyGrants() {
        Policy grantsBoth = policy("""
                bundles:
                  reaching: {namespaces: [demo, neighbour]}
                  reaching-anywhere: {namespaces: [demo, neighbour]}
                """);
        assertThat(decide("reaching-anywhere", "neighbour", grantsBoth).problems()).isEmpty();
        Decision narrowed = decide("reaching", "neighbour", grantsBoth);
        assertThat(refusals(narrowed)).containsExactly(PlanProblem.Kind.OTHER_NAMESPACE);
        assertThat(narrowed.problems().get(0).message()).contains("limits.namespaces: any");
        // Granting only other namespaces takes the primary's own away too.
        assertThat(refusals(decide("reaching", "no-namespace", policy("""
                defaults: {namespaces: [neighbour]}
                """)))).containsExactly(PlanProblem.Kind.OTHER_NAMESPACE);
    }

    @Test
    void aRoleBindingBindsOnlyARoleToServiceAccountsOfItsNamespaceEvenWhereThePolicyGrantsTheKind() {
        Policy grantsBindings = policy("""
                defaults:
                  kinds: [Store, RoleBinding.rbac.authorization.k8s.io]
                """);
        assertThat(decide("reaching", "bind-own", grantsBindings).problems()).isEmpty();
        for (String reach : List.of("bind-everyone", "bind-elsewhere", "bind-cluster-role")) {
            Decision refused = decide("reaching", reach, grantsBindings);
            assertThat(refusals(refused)).as(reach).containsExactly(PlanProblem.Kind.FOREIGN_BINDING);
            assertThat(refused.problems().get(0).message()).as(reach).contains("apply RoleBinding demo/store is refused",
                    "ServiceAccounts of that namespace only");
        }
        assertThat(decide("reaching", "bind-everyone", grantsBindings).problems().get(0).message())
                .contains("it grants to the Group system:authenticated, not a ServiceAccount");
        assertThat(decide("reaching", "bind-elsewhere", grantsBindings).problems().get(0).message())
                .contains("the ServiceAccount kube-system/store of another namespace than demo");
        assertThat(decide("reaching", "bind-cluster-role", grantsBindings).problems().get(0).message())
                .contains("it binds the ClusterRole edit, not a Role");
    }

    @Test
    void thePrimarysNamespaceIsNotGrantedWhenItIsReserved() {
        Primary inOperatorNamespace = new Primary(Map.of("apiVersion", "example.runbook.dev/v1", "kind", "Store",
                "metadata", Map.of("name", "main", "namespace", "runbook-system", "uid", "u-1"),
                "spec", Map.of("reach", "no-namespace")));
        Decision decision = DecisionCycle.run(TestBundles.compiled("reaching"),
                new Observation(inOperatorNamespace, List.of(), NOW), Policy.DEFAULT.reserving("runbook-system"));
        assertThat(refusals(decision)).containsExactly(PlanProblem.Kind.OTHER_NAMESPACE);
        assertThat(decision.problems().get(0).message()).contains("namespace runbook-system is reserved");
    }

    /**
     * A scenario's primary (here in demo) stands for a primary in a namespace the policy grants (here
     * databases): its own namespace passes; another namespace, a kind and a cluster-scoped object are
     * checked as in production; a policy that grants the bundle no namespace at all refuses even that.
     */
    @Test
    void forScenariosThePrimarysNamespaceStandsForOneThePolicyGrants() {
        Policy databases = policy("""
                bundles:
                  reaching: {namespaces: [databases]}
                  reaching-anywhere: {namespaces: [databases]}
                """);
        assertThat(refusals(decide("reaching", "no-namespace", databases))).containsExactly(PlanProblem.Kind.OTHER_NAMESPACE);

        Policy forScenarios = databases.forScenarios();
        assertThat(decide("reaching", "no-namespace", forScenarios).problems()).isEmpty();
        Decision neighbour = decide("reaching-anywhere", "neighbour", forScenarios);
        assertThat(refusals(neighbour)).containsExactly(PlanProblem.Kind.OTHER_NAMESPACE);
        assertThat(neighbour.problems().get(0).message()).contains("namespace neighbour is outside what policy.yaml grants");
        assertThat(refusals(decide("reaching-anywhere", "kube-system", forScenarios))).containsExactly(PlanProblem.Kind.OTHER_NAMESPACE);
        assertThat(refusals(decide("reaching", "secret", forScenarios))).containsExactly(PlanProblem.Kind.PROTECTED_KIND);
        assertThat(refusals(decide("reaching-anywhere", "cluster-admin", forScenarios))).containsExactly(PlanProblem.Kind.CLUSTER_SCOPED);

        Decision nowhere = decide("reaching", "no-namespace", policy("""
                defaults: {namespaces: []}
                """).forScenarios());
        assertThat(refusals(nowhere)).containsExactly(PlanProblem.Kind.OTHER_NAMESPACE);
        assertThat(nowhere.problems().get(0).message()).contains("(namespaces [])",
                "a scenario's primary stands for a namespace the policy grants, and it grants none");
    }
}
