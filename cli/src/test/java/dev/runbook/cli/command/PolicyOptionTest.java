package dev.runbook.cli.command;

import dev.runbook.operator.testkit.ProjectFiles;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

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

    /**
     * The scenarios' primaries live in demo, which the policy does not grant: for a scenario that namespace
     * stands for one the policy grants (docs/security.md, "Vetting"), and everything else is checked.
     */
    @Test
    void testRunsTheScenariosUnderThePolicyTheirPrimarysNamespaceStandingForAGrantedOne(@TempDir Path work) throws Exception {
        CommandResult granted = CommandResult.run("test", BUNDLE, "tests/bootstrap.yaml", "--policy", DATABASES_ONLY);
        assertThat(granted.exitCode()).as(granted.out() + granted.err()).isZero();

        Path noStatefulSets = Files.writeString(work.resolve("policy.yaml"), """
                bundles:
                  postgres-cluster:
                    namespaces: [databases]
                    kinds: [pods, services, configmaps, jobs.batch]
                """);
        CommandResult refused = CommandResult.run("test", BUNDLE, "tests/bootstrap.yaml", "--policy", noStatefulSets.toString());
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.out()).contains("FAIL", "kind StatefulSet (apps/v1) is not one " + noStatefulSets + " lets bundle postgres-cluster write");
    }

    /** The policy as deploy/ installs it, a ConfigMap: read as the policy it holds, by every command that takes one. */
    @Test
    void thePolicyConfigMapThatDeployInstallsIsAPolicyFile() {
        String deploy = ProjectFiles.of("deploy/15-policy.yaml").toString();

        CommandResult lint = CommandResult.run("lint", BUNDLE, "--policy", deploy);
        assertThat(lint.exitCode()).as(lint.err()).isZero();
        assertThat(lint.out()).contains("policy " + deploy + " for bundle postgres-cluster: namespaces [databases]");
        CommandResult plan = CommandResult.run("plan", BUNDLE, "--state", FAILED, "--policy", deploy);
        assertThat(plan.exitCode()).isEqualTo(1);
        assertThat(plan.out()).contains("namespace demo is outside what " + deploy + " grants bundle postgres-cluster");
    }

    @Test
    void aBrokenPolicyFileIsBadInputNamingItsLine() {
        String broken = ProjectFiles.of("operator/src/test/resources/policy/broken.yaml").toString();
        CommandResult result = CommandResult.run("plan", BUNDLE, "--state", FAILED, "--policy", broken);
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains(broken + ":3:5: bundles.postgres-cluster.namespace: unknown key");
    }
}
