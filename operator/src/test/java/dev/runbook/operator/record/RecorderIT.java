package dev.runbook.operator.record;

import dev.runbook.engine.apply.Outcome;
import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.operator.act.AppliedAction;
import dev.runbook.operator.act.CachedObjects;
import dev.runbook.operator.error.Failure;
import dev.runbook.operator.kube.EventWriter;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.testkit.CountingClient;
import dev.runbook.operator.testkit.RunbookIT;
import dev.runbook.operator.testkit.TestCluster;
import dev.runbook.operator.testkit.TestNamespace;
import dev.runbook.rules.action.Actions;
import dev.runbook.rules.fact.Primary;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.runbook.operator.testkit.Objects.at;
import static dev.runbook.operator.testkit.Objects.condition;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the record phase sends for a sequence of cycles on one primary, counted on its own client: a
 * cycle that found everything in place after one that applied the plan sends no status write (its
 * {@code lastCycle} and {@code RunbookApplied} would only say "nothing changed"), while a failure,
 * observe mode and the recovery from either do; a cycle that changed only the primary's status
 * records no changes event.
 */
@RunbookIT(crds = "src/test/resources/bundles/web-app/crds/webapps.test.runbook.dev.yaml")
class RecorderIT {
    static TestCluster cluster;
    @TestNamespace("record")
    String namespace;

    /** The requests one {@link Recorder#record} sent: status writes and event writes. */
    record Sent(long statusWrites, long eventWrites) {}

    @Test
    void aSettledCycleAfterAnAppliedOneWritesNoStatusWhileAFailureObserveModeAndTheRecoveriesDo() {
        CountingClient counting = new CountingClient(cluster);
        try (KubernetesClient client = counting.client()) {
            KubeApi api = new KubeApi(client);
            api.register(new PrimaryKind(new Kind("test.runbook.dev/v1", "WebApp"), "webapps", true));
            Primary primary = new Primary(api.create(Map.of("apiVersion", "test.runbook.dev/v1", "kind", "WebApp",
                    "metadata", Map.of("name", "shop", "namespace", namespace), "spec", Map.of("greeting", "hi"))));
            Recorder recorder = new Recorder(api, new EventWriter(client), "runbook-web-app", "WebApp");
            PlannedAction phase = new PlannedAction(Actions.setStatus(primary, "phase", "Serving"), List.of("Phase"));
            Decision decision = new Decision("web-app", "abc", Instant.EPOCH, List.of(), List.of(phase), List.of());
            Failure refused = new Failure(Failure.Kind.PERMANENT, "ActionFailed", "setStatus ...: 422", List.of("Phase"));
            Instant now = Instant.parse("2026-12-01T10:00:00Z");
            counting.drain();

            // The plan's status action changes the status: one write, and no changes event (only the primary's status changed).
            Sent changing = record(recorder, counting, primary, report(BundleSpec.Mode.ENFORCE, decision,
                    List.of(new AppliedAction(phase, Outcome.UPDATED)), null, null), List.of(phase), now);
            assertThat(changing).isEqualTo(new Sent(1, 0));
            Map<String, Object> applied = api.get(primary.getRef()).orElseThrow();
            assertThat((Object) at(applied, "status.phase")).isEqualTo("Serving");
            assertThat(outcomes(applied)).containsExactly("UPDATED");
            assertThat(condition(applied, RunbookCondition.TYPE)).containsEntry("status", "True")
                    .containsEntry("message", "1 action: 1 updated");

            // The re-check finds it in place: nothing to write, lastCycle and the condition stay as they were.
            Sent settled = record(recorder, counting, primary, report(BundleSpec.Mode.ENFORCE, decision,
                    List.of(new AppliedAction(phase, Outcome.NONE)), null, null), List.of(phase), now.plusSeconds(1));
            assertThat(settled).isEqualTo(new Sent(0, 0));
            assertThat(api.get(primary.getRef()).orElseThrow()).isEqualTo(applied);

            // A failure is written, with its Warning event.
            Sent failed = record(recorder, counting, primary, report(BundleSpec.Mode.ENFORCE, decision, List.of(), phase, refused),
                    List.of(), now.plusSeconds(2));
            assertThat(failed).isEqualTo(new Sent(1, 1));
            Map<String, Object> failure = api.get(primary.getRef()).orElseThrow();
            assertThat(outcomes(failure)).containsExactly("FAILED");
            assertThat(condition(failure, RunbookCondition.TYPE)).containsEntry("status", "False").containsEntry("reason", "ActionFailed");

            // The recovery, though it changes nothing, is written: the condition turns back to True.
            Sent recovered = record(recorder, counting, primary, report(BundleSpec.Mode.ENFORCE, decision,
                    List.of(new AppliedAction(phase, Outcome.NONE)), null, null), List.of(phase), now.plusSeconds(3));
            assertThat(recovered.statusWrites()).isEqualTo(1);
            Map<String, Object> recovery = api.get(primary.getRef()).orElseThrow();
            assertThat(outcomes(recovery)).containsExactly("NONE");
            assertThat(condition(recovery, RunbookCondition.TYPE)).containsEntry("status", "True")
                    .containsEntry("reason", "Applied").containsEntry("message", "1 action: 1 unchanged");

            // Observe mode plans, and is written; back in enforce, the first settled cycle is written, the next is not.
            Sent observing = record(recorder, counting, primary, report(BundleSpec.Mode.OBSERVE, decision, List.of(), null, null),
                    List.of(), now.plusSeconds(4));
            assertThat(observing.statusWrites()).isEqualTo(1);
            assertThat(outcomes(api.get(primary.getRef()).orElseThrow())).containsExactly("PLANNED");
            CycleReport inPlace = report(BundleSpec.Mode.ENFORCE, decision, List.of(new AppliedAction(phase, Outcome.NONE)), null, null);
            assertThat(record(recorder, counting, primary, inPlace, List.of(phase), now.plusSeconds(5)).statusWrites())
                    .as("the first settled cycle after observe mode").isEqualTo(1);
            assertThat(record(recorder, counting, primary, inPlace, List.of(phase), now.plusSeconds(6)).statusWrites())
                    .as("the next one").isZero();
            assertThat(outcomes(api.get(primary.getRef()).orElseThrow())).containsExactly("NONE");
        }
    }

    private static CycleReport report(BundleSpec.Mode mode, Decision decision, List<AppliedAction> applied,
                                      PlannedAction failed, Failure failure) {
        return new CycleReport("c-1", "web-app", "abc", mode, false, decision, applied, failed, failure, Duration.ZERO);
    }

    private static Sent record(Recorder recorder, CountingClient counting, Primary primary, CycleReport report,
                               List<PlannedAction> statusActions, Instant now) {
        recorder.record(primary, report, CachedObjects.none(), statusActions, now);
        List<String> requests = counting.drain();
        String status = "/webapps/" + primary.getName() + "/status";
        return new Sent(requests.stream().filter(r -> r.startsWith("PATCH ") && r.endsWith(status)).count(),
                requests.stream().filter(r -> !r.startsWith("GET ") && r.contains("/events")).count());
    }

    private static List<Object> outcomes(Map<String, Object> primary) {
        List<Map<String, Object>> actions = at(primary, "status.lastCycle.actions");
        return actions.stream().map(a -> a.get("outcome")).toList();
    }
}
