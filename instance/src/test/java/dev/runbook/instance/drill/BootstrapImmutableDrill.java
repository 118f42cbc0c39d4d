package dev.runbook.instance.drill;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CRD's transition rule on a real API server (docs/runbooks/postgres-cluster.md#the-custom-resource):
 * once a primary has reported a position ({@code status.primaryLsn}), adding {@code spec.bootstrap}
 * to the cluster is refused with the rule's message, and the cluster keeps its spec.
 */
record BootstrapImmutableDrill(String namespace, Kubectl kubectl, ClusterReads reads) {

    String check() {
        assertThat(reads.status("pg", "primaryLsn")).as("the cluster has had a primary").isNotEmpty();
        String refusal;
        try {
            kubectl.run("-n", namespace, "patch", "postgrescluster", "pg", "--type=merge", "-p",
                    "{\"spec\":{\"bootstrap\":{\"recovery\":{\"source\":{\"objectStore\":{\"destinationPath\":\"s3://runbook-backups/elsewhere\","
                            + "\"s3Credentials\":{\"secretName\":\"pg-backup-store\"}}}}}}}");
            throw new AssertionError("the API server accepted spec.bootstrap on a cluster that has had a primary");
        } catch (IllegalStateException e) {
            refusal = e.getMessage();
        }
        assertThat(refusal).contains("spec.bootstrap: Forbidden").contains("once the cluster has had a primary");
        assertThat(kubectl.run("-n", namespace, "get", "postgrescluster", "pg", "-o", "jsonpath={.spec.bootstrap}")).isEmpty();
        return "refused: " + refusal.substring(refusal.indexOf("spec.bootstrap: Forbidden")).lines().findFirst().orElse("");
    }
}
