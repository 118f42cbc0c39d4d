package dev.runbook.cli.command;

import dev.runbook.operator.testkit.ProjectFiles;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PlanCommandTest {
    private static final String BUNDLE = ProjectFiles.of("runbooks/postgres-cluster").toString();
    private static final String FAILED = ProjectFiles.of("runbooks/postgres-cluster/samples/primary-failed.yaml").toString();

    @SuppressWarnings("unchecked")
    private static Map<String, Object> yaml(String text) {
        return (Map<String, Object>) new Yaml().load(text);
    }

    @Test
    void aRuleThatNeverEndsExitsTwoWithOneLineNamingIt() {
        String bundle = ProjectFiles.of("engine/src/test/resources/bundles/contained/loop-in-consequence").toString();
        String state = ProjectFiles.of("engine/src/test/resources/bundles/contained/store.yaml").toString();
        CommandResult result = CommandResult.run("plan", bundle, "--state", state);

        assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(2);
        assertThat(result.err().strip()).startsWith("runbook: rule 'Loop forever' exceeded its deadline")
                .doesNotContain("\tat ").doesNotContain("Exception");
    }

    /** Before templates rendered within the cycle's budget, this stopped plan with an OutOfMemoryError. */
    @Test
    void aTemplateAskingForMoreMemoryThanTheJvmHasExitsTwoWithOneLineNamingIt() {
        String bundle = ProjectFiles.of("engine/src/test/resources/bundles/contained/template-asks-too-much").toString();
        String state = ProjectFiles.of("engine/src/test/resources/bundles/contained/store.yaml").toString();
        CommandResult result = CommandResult.run("plan", bundle, "--state", state);

        assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(2);
        assertThat(result.err().strip()).startsWith("runbook: template config.yaml (applied by rule 'Apply the configuration') "
                + "exceeded the memory a cycle may use").doesNotContain("\tat ").doesNotContain("Exception");
    }

    @Test
    void printsFiredRulesMatchedFactsAndActionsAsYaml() {
        CommandResult result = CommandResult.run("plan", BUNDLE, "--state", FAILED);

        assertThat(result.exitCode()).as(result.err()).isZero();
        Map<String, Object> plan = yaml(result.out());
        assertThat(plan).containsEntry("valid", true).containsEntry("now", "2026-11-30T09:00:00Z");
        assertThat((List<Map<String, Object>>) plan.get("fired")).anySatisfy(firing -> {
            assertThat(firing.get("rule")).isEqualTo("Start a failover when the primary has been not ready for longer than failoverDelay");
            // the best replica, pg-2, is among the facts the rule matched (as the derived BestReplica)
            assertThat((List<String>) firing.get("matched")).anyMatch(m -> m.startsWith("BestReplica( member=Member( pod=Pod demo/pg-2"));
        });
        assertThat((List<Map<String, Object>>) plan.get("actions")).anySatisfy(action -> {
            assertThat(action).containsEntry("action", "setStatus").containsEntry("path", "targetPrimary").containsEntry("value", "pg-2");
            assertThat((List<String>) action.get("by")).hasSize(1);
        });
    }

    @Test
    void theOperatorsOwnNamespaceIsRefusedAsRunRefusesIt() {
        // The sample lives in demo: an operator whose own namespace is demo refuses every plan there.
        CommandResult own = CommandResult.run("plan", BUNDLE, "--state", FAILED, "--operator-namespace", "demo");
        assertThat(own.exitCode()).as(own.err()).isEqualTo(1);
        assertThat(yaml(own.out())).containsEntry("valid", false);
        assertThat(own.out()).contains("namespace demo is reserved");

        assertThat(CommandResult.run("plan", BUNDLE, "--state", FAILED, "--operator-namespace", "runbook-system").exitCode()).isZero();
    }

    @Test
    void theTimeAndParametersCanBeSet() {
        // The primary failed at 08:58:30: with a 5 minute delay nothing is promoted at 09:00.
        Path state = ProjectFiles.of("runbooks/postgres-cluster/samples/primary-failed.yaml");
        CommandResult early = CommandResult.run("plan", BUNDLE, "--state", state.toString(), "--now", "2026-11-30T08:58:45Z");
        assertThat(early.exitCode()).isZero();
        assertThat(early.out()).doesNotContain("path: targetPrimary");
        CommandResult late = CommandResult.run("plan", BUNDLE, "--state", state.toString(), "--now", "2026-11-30T08:59:30Z");
        assertThat(late.out()).contains("path: targetPrimary");
    }

    @Test
    void aRefusedPlanExitsOneAndListsItsProblems() {
        CommandResult result = CommandResult.run("plan", ProjectFiles.of("engine/src/test/resources/bundles/conflicting").toString(),
                "--state", ProjectFiles.of("operator/src/test/resources/state/store.yaml").toString());

        assertThat(result.exitCode()).isEqualTo(1);
        Map<String, Object> plan = yaml(result.out());
        assertThat(plan).containsEntry("valid", false).doesNotContainKey("actions").containsKey("refusedActions");
        assertThat(result.out()).contains("kind: CONFLICT", "Healthy when asked nicely", "Degraded when in doubt");
        assertThat(result.err()).contains("the plan is refused");
    }

    @Test
    void aRunawayRuleExitsTwoNamingTheRule() {
        CommandResult result = CommandResult.run("plan", ProjectFiles.of("engine/src/test/resources/bundles/looping").toString(),
                "--state", ProjectFiles.of("operator/src/test/resources/state/store.yaml").toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).contains("Count forever", "limits.maxFirings");
    }

    @Test
    void badStateFilesExitTwoNamingFileAndLine(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path state = dir.resolve("state.yaml");
        Files.writeString(state, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Pod\nmetadata: {}\n");
        CommandResult result = CommandResult.run("plan", BUNDLE, "--state", state.toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.out()).isEmpty();
        assertThat(result.err().trim()).isEqualTo(state + ":6:1: metadata.name: missing: every object needs apiVersion, kind and metadata.name");
    }

    /** An unquoted number where the API server sends a string is refused, not carried into status as a number. */
    @Test
    void aValueOfAnotherTypeThanTheApiServerSendsIsRefusedWithItsPlace(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path state = dir.resolve("state.yaml");
        Files.writeString(state, """
                apiVersion: postgres.runbook.dev/v1alpha1
                kind: PostgresCluster
                metadata: {name: pg, namespace: demo}
                spec:
                  instances: "3"
                  image: postgres:16.4
                ---
                apiVersion: v1
                kind: Pod
                metadata:
                  name: pg-0
                  namespace: demo
                  labels: {postgres.runbook.dev/cluster: pg}
                  annotations: {postgres.runbook.dev/replayed-lsn: 50331648}
                """);
        CommandResult result = CommandResult.run("plan", BUNDLE, "--state", state.toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).contains(state + ":5:14: spec.instances: 3 is a string, but the schema of PostgresCluster"
                        + " (crds/postgresclusters.postgres.runbook.dev.yaml) says an integer, so the API server would refuse it: write it without quotes")
                .contains(state + ":14:52: metadata.annotations.postgres.runbook.dev/replayed-lsn: 50331648 is a number, but the API"
                        + " server stores annotations as strings (kubectl refuses anything else): quote it ('50331648')");
    }

    @Test
    void aStateWithoutThePrimaryKindIsExplained(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path state = dir.resolve("pods.yaml");
        Files.writeString(state, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n");
        CommandResult result = CommandResult.run("plan", BUNDLE, "--state", state.toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).contains("no postgres.runbook.dev/v1alpha1 PostgresCluster in the state");
    }

    @Test
    void badArgumentsExitTwo() {
        assertThat(CommandResult.run("plan", BUNDLE, "--state", FAILED, "--now", "yesterday").err())
                .contains("--now: 'yesterday' is not a time");
        CommandResult unknownParam = CommandResult.run("plan", BUNDLE, "--state", FAILED, "--param", "failoverDealy=1m");
        assertThat(unknownParam.exitCode()).isEqualTo(2);
        assertThat(unknownParam.err()).contains("unknown parameter 'failoverDealy'");
        CommandResult wrongType = CommandResult.run("plan", BUNDLE, "--state", FAILED, "--param", "failoverDelay=soon");
        assertThat(wrongType.exitCode()).isEqualTo(2);
        assertThat(wrongType.err()).contains("parameter 'failoverDelay' (duration): 'soon' is not a duration");
        assertThat(CommandResult.run("plan", BUNDLE).exitCode()).isEqualTo(2);
    }
}
