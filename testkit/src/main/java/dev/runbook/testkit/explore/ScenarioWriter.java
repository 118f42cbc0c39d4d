package dev.runbook.testkit.explore;

import dev.runbook.engine.plan.PlanYaml;
import dev.runbook.testkit.scenario.WorldChange;
import dev.runbook.rules.function.Durations;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a run as a drill in the scenario format (docs/testing.md), so that {@code runbook test}
 * replays it: the start state (by file, relative to where the scenario is written, or inline), then
 * one step per explored step with its time and world changes. Each step expects a valid plan, the
 * last convergence step the status {@code converge.expect} asks for; the invariants are checked
 * after every step by the scenario kit itself.
 */
final class ScenarioWriter {
    private ScenarioWriter() {}

    static String write(ExploreSpec spec, Path scenarioDirectory, String name, List<String> comments, List<StepRecord> steps) {
        Map<String, Object> scenario = new LinkedHashMap<>();
        scenario.put("name", name);
        scenario.put("now", spec.now().toString());
        if (!spec.params().isEmpty()) scenario.put("params", spec.params());
        List<Object> state = new ArrayList<>();
        Path from = scenarioDirectory.toAbsolutePath().normalize();
        for (Path file : spec.stateFiles()) {
            state.add(Map.of("file", from.relativize(file).toString().replace('\\', '/')));
        }
        state.addAll(spec.stateInline());
        scenario.put("state", state);
        List<Object> written = new ArrayList<>();
        for (StepRecord step : steps) {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("name", step.name());
            map.put("advance", Durations.format(step.advance()));
            if (!step.changes().isEmpty()) map.put("changes", step.changes().stream().map(ScenarioWriter::change).toList());
            map.put("expect", step.expectStatus() == null ? Map.of("valid", true) : Map.of("status", step.expectStatus()));
            written.add(map);
        }
        scenario.put("steps", written);
        scenario.put("idempotence", Map.of("skip", "an explored run ends where its failure shows, not at rest"));
        StringBuilder out = new StringBuilder();
        comments.forEach(c -> out.append("# ").append(c).append('\n'));
        out.append(PlanYaml.dump(scenario));
        return out.toString();
    }

    /** A world change in the form a scenario file writes it. */
    static Map<String, Object> change(WorldChange change) {
        boolean shortForm = List.of("podNotReady", "podReady", "deletePod", "jobSucceeds", "jobFails").contains(change.type())
                && change.fields().isEmpty();
        if (shortForm) return Map.of(change.type(), change.name());
        if (change.type().equals("create")) return Map.of("create", change.fields().get("object"));
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("kind", change.kind());
        fields.put("name", change.name());
        change.fields().forEach((k, v) -> fields.put(k, v instanceof Instant i ? i.toString() : v));
        return Map.of(change.type(), fields);
    }

    /** A short description of world changes, for a step whose faults were shrunk. */
    static String describe(List<WorldChange> changes) {
        if (changes.isEmpty()) return "time passes";
        List<String> parts = new ArrayList<>();
        for (WorldChange change : changes) {
            Object detail = change.fields().containsKey("path") ? change.fields().get("path")
                    : change.fields().containsKey("key") ? change.fields().get("key") : null;
            parts.add(change.type() + " " + change.name() + (detail == null ? "" : " " + detail)
                    + (change.fields().containsKey("value") ? "=" + change.fields().get("value") : ""));
        }
        return String.join("; ", parts);
    }
}
