package dev.runbook.cli.command;

import dev.runbook.operator.command.ExitCodes;
import dev.runbook.operator.kube.OperatorNamespace;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.List;


import static dev.runbook.cli.command.CommandResult.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@code runbook run}: what it refuses before it connects to a cluster. The operator itself runs in the *IT tests. */
class RunCommandTest {
    @Test
    void theCommandIsListed() {
        assertThat(run("--help").out()).contains("run", "Run the operator");
    }

    @Test
    void itHasHelp() {
        CommandResult result = run("run", "--help");
        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("--bundle=DIR", "--namespace=NS", "KUBECONFIG", "--bundle-configmaps",
                "--leader-election", "--http-port=PORT", "--reconcile-threads=N");
    }

    @Test
    void aBundleOrBundleConfigMapsAreRequired() {
        CommandResult result = run("run");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("give at least one --bundle DIR, or --bundle-configmaps");
    }

    @Test
    void noReconcileThreadIsBadInputNamingTheOptionAndTheFix() {
        CommandResult result = run("run", "--bundle", "../operator/src/test/resources/bundles/web-app", "--reconcile-threads", "0");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("--reconcile-threads 0: give at least 1 (the default here is ");
        assertThat(result.out()).isEmpty();
    }

    @Test
    void aBundleThatIsNotThereIsBadInputNamingIt() {
        CommandResult result = run("run", "--bundle", "no/such/bundle");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("no/such/bundle", "not a directory");
    }

    @Test
    void aBundleThatDoesNotCompileIsRefusedBeforeAnythingStarts() {
        CommandResult result = run("run", "--bundle", "../operator/src/test/resources/bundles/web-app", "--bundle", "../engine/src/test/resources/bundles/broken-syntax");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("rules/");
        assertThat(result.out()).isEmpty();
    }

    @Test
    void outsideAPodWhatKeepsStateInTheOperatorsNamespaceAsksForOneBeforeConnecting() {
        assumeTrue(System.getenv("POD_NAMESPACE") == null && !Files.exists(OperatorNamespace.SERVICE_ACCOUNT_NAMESPACE),
                "this test runs outside a pod");
        for (String option : List.of("--bundle-configmaps", "--leader-election", "--webhook-port=9443")) {
            CommandResult result = run("run", "--bundle", "../operator/src/test/resources/bundles/web-app", option);
            assertThat(result.exitCode()).as(option).isEqualTo(ExitCodes.BAD_INPUT);
            assertThat(result.err()).as(option).startsWith("runbook: " + option.replaceAll("=.*", "")
                    + " keeps its state in the operator's own namespace, and outside a pod there is none: give --operator-namespace NS");
            assertThat(result.out()).isEmpty();
        }
    }
}
