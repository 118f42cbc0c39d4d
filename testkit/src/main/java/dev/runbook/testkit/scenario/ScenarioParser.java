package dev.runbook.testkit.scenario;

import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import dev.runbook.engine.state.ObservedObject;
import dev.runbook.engine.state.ApiTypes;
import dev.runbook.engine.state.StateFiles;
import dev.runbook.engine.bundle.CrdSchemas;
import dev.runbook.engine.files.BundleFiles;
import dev.runbook.engine.yaml.YamlFile;
import dev.runbook.engine.yaml.YamlMap;
import dev.runbook.rules.function.Durations;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads scenario files: one scenario per YAML document. Everything is checked as it is read —
 * unknown keys, bad values, missing referenced files, expectations that could never match — and
 * reported as {@code file:line:col: message}, because a scenario that silently tests nothing is worse
 * than none. See docs/testing.md for the format.
 */
public final class ScenarioParser {
    /** The action types a plan can hold, as written in {@code action:}. */
    public static final List<String> ACTION_TYPES = List.of(
            "apply", "mergePatch", "delete", "setStatus", "setCondition", "event", "requeue", "label", "annotate",
            "finishCleanup");
    static final List<String> SCENARIO_KEYS = List.of(
            "name", "description", "now", "params", "primary", "state", "expect", "steps", "idempotence");
    static final List<String> EXPECT_KEYS = List.of(
            "fired", "notFired", "actions", "absent", "noActions", "valid", "problems", "status", "conditions",
            "primaryGone");
    static final List<String> STEP_KEYS = List.of("name", "advance", "changes", "expect");
    static final List<String> PROBLEM_KINDS = List.of(
            "CONFLICT", "TOO_MANY_ACTIONS", "OTHER_NAMESPACE", "PROTECTED_KIND", "TEMPLATE");

    /** Where the bundle's files are read from: its directory, or its files in memory. */
    private final BundleFiles files;
    /** The bundle directory, for files given by a path of their own; null for a bundle in memory. */
    private final Path bundle;
    /** What the API server would send: the state's values are checked against it (labels are strings, the bundle's CRDs). */
    private final ApiTypes types;

    /** @param bundle the bundle directory; file names in messages are relative to it */
    public ScenarioParser(Path bundle) {
        this(BundleFiles.on(bundle), bundle, CrdSchemas.read(bundle));
    }

    /** A parser of the scenarios of a bundle held in memory, by path ({@code tests/failover.yaml}). */
    public ScenarioParser(BundleFiles files, CrdSchemas crds) {
        this(files, null, crds);
    }

    private ScenarioParser(BundleFiles files, Path bundle, CrdSchemas crds) {
        this.files = files;
        this.bundle = bundle;
        this.types = ApiTypes.of(crds);
    }

    /** The scenarios of a file of the bundle's directory (or one outside it, named relative to it). */
    public List<Scenario> parse(Path file) {
        return parse(bundle.relativize(file.toAbsolutePath().normalize()).toString().replace('\\', '/'));
    }

    /** The scenarios of the file at {@code name}, relative to the bundle: names in messages and state files are relative to it. */
    public List<Scenario> parse(String name) {
        String text = files.read(name, "a scenario file");
        if (text == null) throw new InvalidInputException(Problem.inFile(name, "no such scenario file"));
        List<Scenario> scenarios = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Node document : YamlFile.documents(name, text)) {
            Scenario scenario = scenario(name, YamlMap.root(name, document));
            if (!names.add(scenario.name())) {
                throw new InvalidInputException(new Problem(name, scenario.line(), 1,
                        "name: '" + scenario.name() + "' is used twice in this file: give each scenario its own name"));
            }
            scenarios.add(scenario);
        }
        if (scenarios.isEmpty()) {
            throw new InvalidInputException(Problem.inFile(name, "no scenario in the file"));
        }
        return scenarios;
    }

    private Scenario scenario(String file, YamlMap map) {
        map.allowOnly(SCENARIO_KEYS.toArray(String[]::new));
        String name = map.string("name", "say what the scenario shows, e.g. \"a failed primary is replaced\"");
        Instant now = map.optional("now", null, ScenarioParser::instant);
        if (now == null) {
            throw map.error("now", "missing: a scenario runs at a fixed time, e.g. now: 2026-11-30T09:00:00Z");
        }
        Map<String, Object> params = new LinkedHashMap<>();
        YamlMap paramMap = map.map("params");
        if (paramMap != null) {
            for (String key : paramMap.keys()) params.put(key, paramMap.java(key));
        }
        List<ObservedObject> state = state(file, map);
        boolean hasExpect = map.has("expect");
        boolean hasSteps = map.has("steps");
        if (hasExpect == hasSteps) {
            throw map.error(hasExpect ? "steps" : "expect", hasExpect
                    ? "a scenario has either expect (one cycle) or steps (a drill), not both"
                    : "missing: give expect (one cycle) or steps (a drill)");
        }
        Expectation expect = hasExpect ? expectation(map.map("expect")) : null;
        List<Step> steps = hasSteps ? steps(map) : List.of();
        return new Scenario(file, map.line(), name, now, params, map.optionalString("primary", null), state, expect,
                steps, idempotenceSkip(map));
    }

    private static String idempotenceSkip(YamlMap map) {
        YamlMap idempotence = map.map("idempotence");
        if (idempotence == null) return null;
        idempotence.allowOnly("skip");
        String reason = idempotence.optionalString("skip", null);
        if (reason == null || reason.isBlank()) {
            throw idempotence.error("skip", "missing: say why this scenario does not end converged, e.g. "
                    + "skip: the fencing happens in the next cycle");
        }
        return reason;
    }

    /** An RFC 3339 time, or an IllegalArgumentException that shows the form. */
    public static Instant instant(String text) {
        try {
            return OffsetDateTime.parse(text.trim()).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a time: use RFC 3339, e.g. 2026-11-30T09:00:00Z");
        }
    }

    /**
     * The objects of a {@code state:} list (inline, or {@code file: PATH} relative to the file that holds
     * the list, {@code file}, itself relative to the bundle).
     */
    public List<ObservedObject> state(String file, YamlMap map) {
        List<ObservedObject> objects = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        List<Node> items = map.list("state");
        for (int i = 0; i < items.size(); i++) {
            YamlMap item = map.listItem("state", i, items.get(i));
            if (item.has("file") && item.keys().size() == 1) {
                String reference = item.optionalString("file", "");
                String name = Path.of(file).resolveSibling(reference).normalize().toString().replace('\\', '/');
                String text = files.read(name, "a state file");
                if (text == null) {
                    throw item.error("file", "'" + reference + "' does not exist (paths are relative to the scenario file)");
                }
                StateFiles.parse(name, text, objects, problems, types);
            } else {
                addInline(file, items.get(i), objects, problems);
            }
        }
        if (!problems.isEmpty()) throw new InvalidInputException(problems);
        return objects;
    }

    private void addInline(String file, Node node, List<ObservedObject> objects, List<Problem> problems) {
        @SuppressWarnings("unchecked")
        Map<String, Object> object = (Map<String, Object>) YamlFile.toJava(node);
        Object metadata = object.get("metadata");
        if (object.get("apiVersion") == null || object.get("kind") == null
                || !(metadata instanceof Map<?, ?> m) || m.get("name") == null) {
            problems.add(YamlFile.at(file, node, "state: an inline object needs apiVersion, kind and metadata.name "
                    + "(or write file: PATH to read objects from a file)"));
            return;
        }
        ObservedObject checked = StateFiles.object(file, node, problems, types);
        if (checked != null) objects.add(checked);
    }

    private List<Step> steps(YamlMap map) {
        List<Step> steps = new ArrayList<>();
        List<Node> items = map.list("steps");
        if (items.isEmpty()) throw map.error("steps", "empty: a drill needs at least one step");
        for (int i = 0; i < items.size(); i++) {
            YamlMap step = map.listItem("steps", i, items.get(i));
            step.allowOnly(STEP_KEYS.toArray(String[]::new));
            String name = step.optionalString("name", "step " + (i + 1));
            Duration advance = step.optional("advance", Duration.ZERO, Durations::parse);
            if (!step.has("expect")) {
                throw step.error("expect", "missing: every step checks its cycle; say what it expects");
            }
            steps.add(new Step(name, step.line(), advance, changes(step), expectation(step.map("expect"))));
        }
        return steps;
    }

    /** The world changes of a {@code changes:} list, as a drill step writes them. */
    public static List<WorldChange> changes(YamlMap step) {
        List<WorldChange> changes = new ArrayList<>();
        List<Node> items = step.list("changes");
        for (int i = 0; i < items.size(); i++) {
            YamlMap change = step.listItem("changes", i, items.get(i));
            if (change.keys().size() != 1) {
                throw change.error("", "a change is one key, e.g. podNotReady: pg-0 (one of " + WorldChange.TYPES + ")");
            }
            String type = change.keys().iterator().next();
            if (!WorldChange.TYPES.contains(type)) {
                throw change.error(type, "unknown change: use one of " + WorldChange.TYPES);
            }
            changes.add(change(type, change));
        }
        return changes;
    }

    private static WorldChange change(String type, YamlMap change) {
        Node value = change.node(type);
        int line = change.line(type);
        String impliedKind = type.startsWith("pod") || type.equals("deletePod") ? "Pod" : type.startsWith("job") ? "Job"
                : type.startsWith("node") ? "Node" : null;
        if (value instanceof ScalarNode) {
            if (impliedKind == null) {
                throw change.error(type, "needs a mapping, e.g. " + type + ": {kind: Pod, name: pg-0, ...}");
            }
            return new WorldChange(type, impliedKind, String.valueOf(YamlFile.toJava(value)), Map.of(), line);
        }
        YamlMap fields = change.map(type);
        Map<String, Object> rest = new LinkedHashMap<>();
        switch (type) {
            case "create" -> {
                Object object = YamlFile.toJava(value);
                rest.put("object", object);
                Map<?, ?> meta = object instanceof Map<?, ?> m && m.get("metadata") instanceof Map<?, ?> md ? md : Map.of();
                if (!(object instanceof Map<?, ?> m2) || m2.get("kind") == null || meta.get("name") == null) {
                    throw change.error(type, "needs a whole object with apiVersion, kind and metadata.name");
                }
                return new WorldChange(type, String.valueOf(((Map<?, ?>) object).get("kind")),
                        String.valueOf(meta.get("name")), rest, line);
            }
            case "annotate", "label" -> fields.allowOnly("kind", "name", "namespace", "apiVersion", "key", "value");
            case "set" -> fields.allowOnly("kind", "name", "namespace", "apiVersion", "path", "value");
            default -> fields.allowOnly("kind", "name", "namespace", "apiVersion");
        }
        String kind = fields.has("kind") ? fields.optionalString("kind", null) : impliedKind;
        if (kind == null) throw fields.error("kind", "missing: which kind of object, e.g. Pod");
        String name = fields.string("name", "which object, e.g. pg-0");
        for (String key : fields.keys()) {
            if (!key.equals("kind") && !key.equals("name")) rest.put(key, fields.java(key));
        }
        if (type.equals("set") && !rest.containsKey("path")) throw fields.error("path", "missing: e.g. spec.image");
        if ((type.equals("annotate") || type.equals("label")) && !rest.containsKey("key")) {
            throw fields.error("key", "missing: the " + (type.equals("label") ? "label" : "annotation") + " key");
        }
        return new WorldChange(type, kind, name, rest, line);
    }

    private static Expectation expectation(YamlMap map) {
        if (map == null) throw new IllegalStateException("expect is present but not a mapping");
        map.allowOnly(EXPECT_KEYS.toArray(String[]::new));
        if (map.keys().isEmpty()) {
            throw map.error("", "nothing expected: an empty expect can never fail; say what the cycle must do");
        }
        return new Expectation(
                names(map, "fired"),
                names(map, "notFired"),
                actionPatterns(map, "actions"),
                actionPatterns(map, "absent"),
                flag(map, "noActions"),
                flag(map, "valid"),
                problemPatterns(map),
                statusPattern(map),
                maps(map, "conditions"),
                flag(map, "primaryGone"));
    }

    private static Expectation.Located<List<String>> names(YamlMap map, String key) {
        if (!map.has(key)) return null;
        List<String> names = new ArrayList<>();
        for (Node node : map.list(key)) {
            if (!(node instanceof ScalarNode)) throw map.error(key, "expected a list of rule names");
            names.add(String.valueOf(YamlFile.toJava(node)));
        }
        return new Expectation.Located<>(names, map.line(key));
    }

    private static Expectation.Located<Boolean> flag(YamlMap map, String key) {
        if (!map.has(key)) return null;
        Boolean value = map.optional(key, null, text -> switch (text) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException("'" + text + "' is not true or false");
        });
        return new Expectation.Located<>(value, map.line(key));
    }

    private static List<Expectation.Located<Map<String, Object>>> maps(YamlMap map, String key) {
        List<Expectation.Located<Map<String, Object>>> result = new ArrayList<>();
        List<Node> items = map.list(key);
        for (int i = 0; i < items.size(); i++) {
            if (!(items.get(i) instanceof MappingNode)) {
                throw new InvalidInputException(YamlFile.at(map.file(), items.get(i),
                        map.qualified(key) + "[" + i + "]: expected a mapping"));
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> value = (Map<String, Object>) YamlFile.toJava(items.get(i));
            result.add(new Expectation.Located<>(value, items.get(i).getStartMark().getLine() + 1));
        }
        if (map.has(key) && !(map.node(key) instanceof SequenceNode)) throw map.error(key, "expected a list");
        return result;
    }

    private static List<Expectation.Located<Map<String, Object>>> actionPatterns(YamlMap map, String key) {
        List<Expectation.Located<Map<String, Object>>> patterns = maps(map, key);
        for (int i = 0; i < patterns.size(); i++) {
            Object type = patterns.get(i).value().get("action");
            if (type == null && key.equals("actions")) {
                throw new InvalidInputException(new Problem(map.file(), patterns.get(i).line(), 1, map.qualified(key)
                        + "[" + i + "].action: missing: which action, one of " + ACTION_TYPES));
            }
            if (type != null && !ACTION_TYPES.contains(String.valueOf(type))) {
                throw new InvalidInputException(new Problem(map.file(), patterns.get(i).line(), 1, map.qualified(key)
                        + "[" + i + "].action: unknown action type '" + type + "': use one of " + ACTION_TYPES));
            }
        }
        return patterns;
    }

    private static List<Expectation.Located<Map<String, Object>>> problemPatterns(YamlMap map) {
        List<Expectation.Located<Map<String, Object>>> patterns = maps(map, "problems");
        for (int i = 0; i < patterns.size(); i++) {
            Object kind = patterns.get(i).value().get("kind");
            if (kind != null && !PROBLEM_KINDS.contains(String.valueOf(kind))) {
                throw new InvalidInputException(new Problem(map.file(), patterns.get(i).line(), 1, map.qualified("problems")
                        + "[" + i + "].kind: unknown problem kind '" + kind + "': use one of " + PROBLEM_KINDS));
            }
        }
        return patterns;
    }

    private static Expectation.Located<Map<String, Object>> statusPattern(YamlMap map) {
        if (!map.has("status")) return null;
        if (!(map.node("status") instanceof MappingNode)) throw map.error("status", "expected a mapping of status fields");
        @SuppressWarnings("unchecked")
        Map<String, Object> value = (Map<String, Object>) map.java("status");
        return new Expectation.Located<>(value, map.line("status"));
    }
}
