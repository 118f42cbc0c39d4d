package dev.runbook.engine.policy;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.BundleSpecParser;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClusterScopedReadsTest {
    static final BundleSpec READS_NODES = BundleSpecParser.parse("""
            name: postgres-cluster
            primary: {apiVersion: postgres.runbook.dev/v1alpha1, kind: PostgresCluster}
            secondaries:
              - {apiVersion: v1, kind: Pod, mapping: labels, selector: {app: "{name}"}}
              - {apiVersion: v1, kind: Node, mapping: reference, reference: {by: Pod, field: spec.nodeName}}
            """);

    @Test
    void theDefaultPolicyLetsABundleReadTheClusterScopedKindsItDeclares() {
        assertThat(ClusterScopedReads.declared(READS_NODES)).containsExactly("Node");
        assertThat(ClusterScopedReads.refusal(READS_NODES, Policy.DEFAULT)).isNull();
    }

    @Test
    void readingANodeGrantsNoWriteToOne() {
        Policy policy = PolicyParser.parse("policy.yaml", """
                bundles:
                  postgres-cluster:
                    kinds: declared
                    clusterScopedReads: [nodes]
                """);
        EffectiveLimits limits = EffectiveLimits.of(READS_NODES, policy);
        assertThat(ClusterScopedReads.refusal(READS_NODES, policy)).isNull();
        assertThat(limits.clusterScopedRefusal("v1", "Node")).as("a Node is cluster-scoped: only clusterScoped lets a rule write one")
                .contains("lets bundle postgres-cluster write no cluster-scoped Node");
        assertThat(ClusterScopedKinds.isClusterScoped("Node", "demo")).as("whatever namespace a rule gives it").isTrue();
    }

    @Test
    void aPolicyFileGrantsReadsByNameAndRefusesTheRestWithTheFix() {
        Policy policy = PolicyParser.parse("policy.yaml", """
                defaults:
                  clusterScopedReads: []
                bundles:
                  postgres-cluster:
                    namespaces: [databases]
                    clusterScopedReads: [Node]
                  web-app:
                    namespaces: [apps]
                    clusterScopedReads: declared
                """);
        assertThat(policy.forBundle("postgres-cluster").clusterScopedReads()).containsExactly("Node");
        assertThat(policy.forBundle("postgres-cluster").clusterScoped()).as("reading grants no write").isEmpty();
        assertThat(policy.forBundle("web-app").clusterScopedReads()).isNull();
        assertThat(ClusterScopedReads.refusal(READS_NODES, policy)).isNull();
        assertThat(ClusterScopedReads.refusal(READS_NODES, PolicyParser.parse("policy.yaml", "defaults: {clusterScopedReads: [nodes]}\n")))
                .as("the RBAC form").isNull();
        assertThat(ClusterScopedReads.refusal(READS_NODES, PolicyParser.parse("policy.yaml", "defaults: {clusterScopedReads: [nodes.apps]}\n")))
                .as("Nodes are in the core group").isNotNull();

        Policy none = PolicyParser.parse("policy.yaml", "defaults: {clusterScopedReads: []}\n");
        assertThat(ClusterScopedReads.refusal(READS_NODES, none)).isEqualTo("bundle postgres-cluster reads the cluster-scoped Node"
                + " (bundle.yaml, secondaries), which policy.yaml does not let it read []: an administrator adds it (e.g. nodes) under"
                + " bundles.postgres-cluster.clusterScopedReads in the policy file and grants get, list and watch on it in a"
                + " ClusterRole (docs/security.md, \"Reading cluster-scoped kinds\")");
        assertThatThrownBy(() -> PolicyParser.parse("policy.yaml", "defaults: {clusterScopedReads: all}\n"))
                .hasMessageContaining("policy.yaml:1:32: defaults.clusterScopedReads: 'all' is neither declared nor a list");
        assertThatThrownBy(() -> PolicyParser.parse("policy.yaml", "defaults: {clusterScopedReads: [\"no des\"]}\n"))
                .hasMessageContaining("is not a cluster-scoped kind, group-qualified as RBAC writes it (e.g. nodes)");
    }
}
