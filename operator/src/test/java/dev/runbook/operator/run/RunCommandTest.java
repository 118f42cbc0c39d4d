package dev.runbook.operator.run;

import dev.runbook.operator.cli.CommandResult;
import dev.runbook.operator.cli.RunbookCommand;
import org.junit.jupiter.api.Test;


import static dev.runbook.operator.cli.CommandResult.run;
import static org.assertj.core.api.Assertions.assertThat;

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
        assertThat(result.exitCode()).isEqualTo(RunbookCommand.BAD_INPUT);
        assertThat(result.err()).contains("give at least one --bundle DIR, or --bundle-configmaps");
    }

    @Test
    void noReconcileThreadIsBadInputNamingTheOptionAndTheFix() {
        CommandResult result = run("run", "--bundle", "src/test/resources/bundles/web-app", "--reconcile-threads", "0");
        assertThat(result.exitCode()).isEqualTo(RunbookCommand.BAD_INPUT);
        assertThat(result.err()).contains("--reconcile-threads 0: give at least 1 (the default here is ");
        assertThat(result.out()).isEmpty();
    }

    @Test
    void aBundleThatIsNotThereIsBadInputNamingIt() {
        CommandResult result = run("run", "--bundle", "no/such/bundle");
        assertThat(result.exitCode()).isEqualTo(RunbookCommand.BAD_INPUT);
        assertThat(result.err()).contains("no/such/bundle", "not a directory");
    }

    @Test
    void aBundleThatDoesNotCompileIsRefusedBeforeAnythingStarts() {
        CommandResult result = run("run", "--bundle", "src/test/resources/bundles/web-app", "--bundle", "../engine/src/test/resources/bundles/broken-syntax");
        assertThat(result.exitCode()).isEqualTo(RunbookCommand.BAD_INPUT);
        assertThat(result.err()).contains("rules/");
        assertThat(result.out()).isEmpty();
    }
}
