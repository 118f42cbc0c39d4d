package dev.runbook.testkit.explore;

import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import dev.runbook.testkit.scenario.ScenarioParser;
import dev.runbook.testkit.scenario.WorldChange;
import dev.runbook.engine.state.ObservedObject;
import dev.runbook.engine.yaml.YamlFile;
import dev.runbook.engine.yaml.YamlMap;
import dev.runbook.rules.function.Durations;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a bundle's {@code explore.yaml} (see docs/testing.md#exploring). Every key is checked, as in
 * scenario files; world changes are read by the scenario parser, so they mean the same in both.
 */
public final class ExploreSpecParser {
    static final List<String> KEYS = List.of("now", "params", "state", "tick", "faults", "reactions", "converge", "contract");
    static final List<String> CONVERGE_KEYS = List.of("cycles", "every", "heal", "expect");

    private ExploreSpecParser() {}

    public static ExploreSpec read(Path bundle) {
        Path path = bundle.resolve(ExploreSpec.FILE);
        String file = ExploreSpec.FILE;
        if (!Files.isRegularFile(path)) {
            throw new InvalidInputException(Problem.inFile(file, "missing: explore needs the bundle to say where a run "
                    + "starts and what converged means; write explore.yaml (see docs/testing.md#exploring)"));
        }
        String text;
        try {
            text = Files.readString(path);
        } catch (IOException e) {
            throw new InvalidInputException(Problem.inFile(file, "cannot be read: " + e.getMessage()));
        }
        YamlMap map = YamlMap.root(file, YamlFile.document(file, text));
        map.allowOnly(KEYS.toArray(String[]::new));
        Instant now = map.optional("now", null, ScenarioParser::instant);
        if (now == null) throw map.error("now", "missing: runs start at a fixed time, e.g. now: 2026-11-30T09:00:00Z");
        if (map.list("state").isEmpty()) throw map.error("state", "missing: the objects every run starts from, e.g. - file: samples/healthy.yaml");
        Path absoluteBundle = bundle.toAbsolutePath().normalize();
        List<ObservedObject> state = new ScenarioParser(absoluteBundle).state(file, map);
        List<Path> stateFiles = new ArrayList<>();
        List<Map<String, Object>> inline = new ArrayList<>();
        for (Node item : map.list("state")) {
            @SuppressWarnings("unchecked")
            Map<String, Object> java = (Map<String, Object>) YamlFile.toJava(item);
            if (java.size() == 1 && java.containsKey("file")) {
                stateFiles.add(absoluteBundle.resolve(String.valueOf(java.get("file"))).normalize());
            } else {
                inline.add(java);
            }
        }
        Map<String, Object> params = new LinkedHashMap<>();
        YamlMap paramMap = map.map("params");
        if (paramMap != null) paramMap.keys().forEach(k -> params.put(k, paramMap.java(k)));
        Duration tick = map.optional("tick", Duration.ofSeconds(10), Durations::parse);
        return new ExploreSpec(file, now, params, state, stateFiles, inline, tick,
                faults(map, "faults"), faults(map, "reactions"), convergence(map), contract(map));
    }

    /** {@code contract: {reports: [{annotation: KEY, values: [V, ..., null]}]}}: what the pods may report. */
    private static List<dev.runbook.testkit.explore.fault.InstanceReport> contract(YamlMap map) {
        List<dev.runbook.testkit.explore.fault.InstanceReport> reports = new ArrayList<>();
        YamlMap contract = map.map("contract");
        if (contract == null) return reports;
        contract.allowOnly("reports");
        List<Node> items = contract.list("reports");
        for (int i = 0; i < items.size(); i++) {
            YamlMap item = contract.listItem("reports", i, items.get(i));
            item.allowOnly("annotation", "values");
            String annotation = item.string("annotation", "the annotation the pods write, e.g. postgres.runbook.dev/reported-role");
            List<String> values = new ArrayList<>();
            for (Node value : item.list("values")) {
                Object java = YamlFile.toJava(value);
                values.add(java == null ? null : String.valueOf(java));
            }
            if (values.isEmpty()) throw item.error("values", "missing: the values the annotation may take (null: removed)");
            reports.add(new dev.runbook.testkit.explore.fault.InstanceReport(annotation, values));
        }
        return reports;
    }

    private static ExploreSpec.Convergence convergence(YamlMap map) {
        YamlMap converge = map.map("converge");
        if (converge == null) {
            throw map.error("converge", "missing: say what the cluster must reach once faults stop, e.g. "
                    + "converge: {expect: {status: {phase: Healthy}}}");
        }
        converge.allowOnly(CONVERGE_KEYS.toArray(String[]::new));
        int cycles = converge.optional("cycles", 20, text -> {
            int n = Integer.parseInt(text.trim());
            if (n < 1) throw new IllegalArgumentException("must be 1 or more");
            return n;
        });
        Duration every = converge.optional("every", Duration.ofSeconds(10), Durations::parse);
        YamlMap expect = converge.map("expect");
        if (expect == null) throw converge.error("expect", "missing: e.g. expect: {status: {phase: Healthy}}");
        expect.allowOnly("status");
        if (!(expect.node("status") instanceof MappingNode)) {
            throw expect.error("status", "expected a mapping of status fields the converged primary has, e.g. {phase: Healthy}");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> status = (Map<String, Object>) expect.java("status");
        return new ExploreSpec.Convergence(cycles, every, faults(converge, "heal"), status);
    }

    private static List<DeclaredFault> faults(YamlMap map, String key) {
        List<DeclaredFault> faults = new ArrayList<>();
        List<Node> items = map.list(key);
        for (int i = 0; i < items.size(); i++) {
            YamlMap item = map.listItem(key, i, items.get(i));
            item.allowOnly("name", "pods", "changes");
            String name = item.string("name", "say what happens, e.g. \"the user pauses the cluster\"");
            Map<String, String> pods = new LinkedHashMap<>();
            YamlMap podLabels = item.map("pods");
            if (podLabels != null) {
                for (String label : podLabels.keys()) pods.put(label, podLabels.string(label, "the label's value"));
            }
            List<WorldChange> changes = ScenarioParser.changes(item);
            if (changes.isEmpty()) throw item.error("changes", "missing: the world changes, in the scenario format (docs/testing.md)");
            for (WorldChange change : changes) {
                List<String> unknown = Placeholders.unknown(change.name() + " " + change.fields());
                if (!unknown.isEmpty()) {
                    throw new InvalidInputException(new Problem(map.file(), change.line(), 1, "unknown placeholder "
                            + unknown + ": use {primary}, {pod}, {step}, {spec.PATH} or {status.PATH}"));
                }
            }
            if (!pods.isEmpty() && !Placeholders.mentionsPod(changes)) {
                throw item.error("pods", "chooses the pod {pod} stands for, but no change mentions {pod}");
            }
            faults.add(new DeclaredFault(name, pods, changes));
        }
        return faults;
    }
}
