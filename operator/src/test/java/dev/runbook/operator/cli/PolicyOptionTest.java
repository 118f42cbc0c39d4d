package dev.runbook.operator.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --policy FILE} on plan and test: an author sees the refusals the operator will make. */
class PolicyOptionTest {
    private static final String BUNDLE = ProjectFiles.of("runbooks/postgres-cluster").toString();
    private static final String FAILED = ProjectFiles.of("runbooks/postgres-cluster/samples/primary-failed.yaml").toString();
    private static final String DATABASES_ONLY = ProjectFiles.of("operator/src/test/resources/policy/databases-only.yaml").toString();

    @Test
    void planRefusesWhatThePolicyDoesNotGrant() {
        assertThat(CommandResult.run("plan", BUNDLE, "--state", FAILED).exitCode()).isZero();

        CommandResult refused = CommandResult.run("plan", BUNDLE, "--state", FAILED, "--policy", DATABASES_ONLY);
        assertThat(refused.exitCode()).as(refused.err()).isEqualTo(1);
        assertThat(refused.out()).contains("kind: OTHER_NAMESPACE",
                "namespace demo is outside what " + DATABASES_ONLY + " grants bundle postgres-cluster (namespaces [databases])");
    }

    @Test
    void testRunsTheScenariosUnderThePolicy() {
        CommandResult result = CommandResult.run("test", BUNDLE, "--policy", DATABASES_ONLY);
        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.out()).contains("FAIL", "is outside what " + DATABASES_ONLY + " grants");
    }

    @Test
    void aBrokenPolicyFileIsBadInputNamingItsLine() {
        String broken = ProjectFiles.of("operator/src/test/resources/policy/broken.yaml").toString();
        CommandResult result = CommandResult.run("plan", BUNDLE, "--state", FAILED, "--policy", broken);
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains(broken + ":3:5: bundles.postgres-cluster.namespace: unknown key");
    }
}
