package dev.runbook.operator.command;

import dev.runbook.cli.command.CommandResult;
import dev.runbook.operator.kube.OperatorNamespace;
import dev.runbook.operator.testkit.ProjectFiles;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.Map;

import static dev.runbook.operator.command.RunWithEnvironment.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code runbook run --shards}: what it refuses before anything starts, through the whole command line
 * with the command's own environment (which names a good choice is {@code ShardsOptionTest}'s; what a
 * sharded replica does, {@code ShardedRuntimeIT}'s).
 */
class RunCommandShardsTest {
    private static final String BUNDLE = ProjectFiles.of("operator/src/test/resources/bundles/web-app").toString();

    @Test
    void theHelpExplainsBothOptions() {
        String help = run(Map.of(), "run", "--help").out();
        assertThat(help).contains("--shards", "--member=NAME", "$RUNBOOK_SHARDS", "runbook-shard-MEMBER", "runbook.dev/shard=MEMBER",
                "$POD_NAME", "$HOSTNAME", "restarts");
    }

    @Test
    void aBadMemberNameIsBadInputNamingTheOptionAndTheFix() {
        CommandResult result = run(Map.of(), "run", "--bundle", BUNDLE, "--operator-namespace", "runbook-system", "--shards",
                "--member", "Replica_A!");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).startsWith("runbook: --member Replica_A!: shard member name 'Replica_A!' is not a label value")
                .contains("give --member NAME");
        assertThat(result.out()).isEmpty();
    }

    @Test
    void noMemberNameIsBadInputNamingTheOption() {
        CommandResult result = run(Map.of(ShardsOption.VARIABLE, "true"), "run", "--bundle", BUNDLE, "--operator-namespace", "ns");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).startsWith("runbook: --shards needs this replica's member name").contains("give --member NAME");
    }

    @Test
    void aVariableThatIsNotTrueOrFalseIsBadInput() {
        CommandResult result = run(Map.of(ShardsOption.VARIABLE, "on"), "run", "--bundle", BUNDLE);
        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).startsWith("runbook: RUNBOOK_SHARDS=on: give true or false, or unset it");
    }

    @Test
    void outsideAPodShardsAskForTheOperatorsNamespace() {
        assumeTrue(System.getenv("POD_NAMESPACE") == null && !Files.exists(OperatorNamespace.SERVICE_ACCOUNT_NAMESPACE),
                "this test runs outside a pod");
        CommandResult result = run(Map.of("POD_NAME", "runbook-0"), "run", "--bundle", BUNDLE, "--shards");
        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).startsWith("runbook: --shards keeps its state in the operator's own namespace, and outside a pod "
                + "there is none: give --operator-namespace NS");
    }
}
