package dev.runbook.operator.command;

import dev.runbook.cli.command.CommandResult;
import dev.runbook.operator.testkit.ProjectFiles;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.runbook.operator.command.RunWithEnvironment.run;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code runbook run}'s reconcile threads from $RUNBOOK_RECONCILE_THREADS: a bad value is refused
 * before anything starts, naming the variable; the option wins over it. (Which count a good value gives
 * is {@code ReconcileThreadsTest}'s; that the count reaches JOSDK, {@code WebAppOperatorIT}'s.) In the cli module but
 * in the command's package: it runs {@code run} through the whole command line and sets the command's environment.
 */
class RunCommandThreadsTest {
    private static final String BUNDLE = ProjectFiles.of("operator/src/test/resources/bundles/web-app").toString();

    @Test
    void aVariableThatIsNotACountIsBadInputNamingTheVariableAndTheFix() {
        CommandResult result = run(Map.of("RUNBOOK_RECONCILE_THREADS", "eight"), "run", "--bundle", BUNDLE);
        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).startsWith("runbook: RUNBOOK_RECONCILE_THREADS=eight: not a whole number; give at least 1 "
                + "(the default here is ").contains(", or unset it");
        assertThat(result.out()).isEmpty();

        CommandResult zero = run(Map.of("RUNBOOK_RECONCILE_THREADS", " 0 "), "run", "--bundle", BUNDLE);
        assertThat(zero.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(zero.err()).startsWith("runbook: RUNBOOK_RECONCILE_THREADS=0: give at least 1 (the default here is ");
    }

    @Test
    void theOptionWinsOverTheVariable() {
        CommandResult result = run(Map.of("RUNBOOK_RECONCILE_THREADS", "16"), "run", "--bundle", BUNDLE, "--reconcile-threads", "0");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).startsWith("runbook: --reconcile-threads 0: give at least 1").doesNotContain("RUNBOOK_RECONCILE_THREADS");
    }

    @Test
    void theHelpNamesTheVariable() {
        CommandResult result = run(Map.of(), "run", "--help");
        assertThat(result.out()).contains("--reconcile-threads=N", "$RUNBOOK_RECONCILE_THREADS");
    }
}
