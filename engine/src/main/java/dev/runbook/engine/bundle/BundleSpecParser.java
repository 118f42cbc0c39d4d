package dev.runbook.engine.bundle;

import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.yaml.YamlFile;
import dev.runbook.engine.yaml.YamlMap;
import dev.runbook.rules.function.Durations;
import org.yaml.snakeyaml.nodes.Node;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** Reads {@code bundle.yaml}; every error names the file, the line and the field. */
public final class BundleSpecParser {
    public static final String FILE = "bundle.yaml";
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern API_VERSION = Pattern.compile("([a-z0-9.-]+/)?v[0-9]+((alpha|beta)[0-9]+)?");
    private static final Pattern KIND = Pattern.compile("[A-Z][A-Za-z0-9]*");

    /** Every key bundle.yaml accepts, by section: docs/reference/bundle.md documents each one. */
    public static final Map<String, List<String>> KEYS = keys();

    private BundleSpecParser() {}

    private static Map<String, List<String>> keys() {
        Map<String, List<String>> keys = new LinkedHashMap<>();
        keys.put("", List.of("name", "version", "description", "primary", "secondaries", "reconcilePeriod", "mode",
                "fieldManager", "parameters", "limits", "cleanup", "pause", "priorities"));
        keys.put("primary", List.of("apiVersion", "kind", "plural", "namespaced"));
        keys.put("secondaries[]", List.of("apiVersion", "kind", "mapping", "selector", "reference"));
        keys.put("secondaries[].reference", List.of("by", "field"));
        keys.put("parameters.NAME", List.of("default", "type", "description"));
        keys.put("cleanup", List.of("deadline"));
        keys.put("pause", List.of("field", "annotation"));
        keys.put("limits", List.of("maxFirings", "maxActions", "namespaces", "protectedKinds", "cycleDeadline"));
        return java.util.Collections.unmodifiableMap(keys);
    }

    static String[] keysOf(String section) {
        return KEYS.get(section).toArray(String[]::new);
    }

    public static BundleSpec parse(String text) {
        YamlMap root = YamlMap.root(FILE, YamlFile.document(FILE, text));
        root.allowOnly(keysOf(""));

        String name = root.string("name", "name the bundle, e.g. postgres-cluster");
        if (!DNS_LABEL.matcher(name).matches()) {
            throw root.error("name", "'" + name + "' must be lower-case letters, digits and '-' (a DNS label)");
        }
        return new BundleSpec(
                name,
                root.optionalString("version", "0.0.0"),
                root.optionalString("description", ""),
                primary(root),
                secondaries(root),
                root.optional("reconcilePeriod", BundleSpec.DEFAULT_RECONCILE_PERIOD, Durations::parse),
                root.optional("mode", BundleSpec.Mode.ENFORCE, BundleSpecParser::mode),
                root.optionalString("fieldManager", "runbook-" + name),
                parameters(root),
                limits(root),
                cleanup(root),
                Pause.parse(root),
                priorities(root));
    }

    private static Cleanup cleanup(YamlMap root) {
        if (!root.has("cleanup")) return null;
        YamlMap cleanup = root.map("cleanup");
        if (cleanup == null) {
            throw root.error("cleanup", "expected a mapping, e.g. cleanup: {deadline: 5m}");
        }
        cleanup.allowOnly(keysOf("cleanup"));
        return new Cleanup(cleanup.optional("deadline", Cleanup.DEFAULT_DEADLINE, BundleSpecParser::positiveDuration));
    }

    private static BundleSpec.Mode mode(String text) {
        try {
            return BundleSpec.Mode.valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text + "' is not a mode: use enforce or observe");
        }
    }

    private static PrimaryKind primary(YamlMap root) {
        YamlMap primary = root.map("primary");
        if (primary == null) {
            throw root.error("primary", "missing: name the custom resource kind the bundle reconciles "
                    + "(apiVersion, kind, plural)");
        }
        primary.allowOnly(keysOf("primary"));
        Kind kind = kind(primary);
        String plural = primary.optionalString("plural", kind.kind().toLowerCase(Locale.ROOT) + "s");
        boolean namespaced = primary.optional("namespaced", true, BundleSpecParser::bool);
        return new PrimaryKind(kind, plural, namespaced);
    }

    private static Kind kind(YamlMap map) {
        String apiVersion = map.string("apiVersion", "e.g. postgres.runbook.dev/v1alpha1");
        if (!API_VERSION.matcher(apiVersion).matches()) {
            throw map.error("apiVersion", "'" + apiVersion + "' is not group/version or a core version like v1");
        }
        String kind = map.string("kind", "e.g. PostgresCluster");
        if (!KIND.matcher(kind).matches()) {
            throw map.error("kind", "'" + kind + "' is not a kind: use the CamelCase name, e.g. PostgresCluster");
        }
        return new Kind(apiVersion, kind);
    }

    private static boolean bool(String text) {
        if (text.equalsIgnoreCase("true")) return true;
        if (text.equalsIgnoreCase("false")) return false;
        throw new IllegalArgumentException("'" + text + "' is not true or false");
    }

    private static List<SecondaryKind> secondaries(YamlMap root) {
        List<SecondaryKind> result = new ArrayList<>();
        List<Node> items = root.list("secondaries");
        for (int i = 0; i < items.size(); i++) {
            YamlMap item = root.listItem("secondaries", i, items.get(i));
            item.allowOnly(keysOf("secondaries[]"));
            Kind kind = kind(item);
            SecondaryKind.Mapping mapping = item.optional("mapping", SecondaryKind.Mapping.OWNER, text -> {
                try {
                    return SecondaryKind.Mapping.valueOf(text.trim().toUpperCase(Locale.ROOT));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("'" + text + "' is not a mapping: use owner, labels or reference");
                }
            });
            Map<String, String> selector = new LinkedHashMap<>();
            YamlMap selectorMap = item.map("selector");
            if (selectorMap != null) {
                for (String key : selectorMap.keys()) selector.put(key, selectorMap.optionalString(key, ""));
            }
            if (mapping == SecondaryKind.Mapping.LABELS && selector.isEmpty()) {
                throw item.error("selector", "missing: a labels mapping needs a selector, "
                        + "e.g. app.kubernetes.io/instance: \"{name}\"");
            }
            result.add(new SecondaryKind(kind, mapping, selector, SecondaryReferences.reference(item, kind, mapping, result)));
        }
        return result;
    }

    /** Named salience levels: NAME: integer; rules say @priority(NAME) (engine.idiom.PriorityLevels). */
    private static Map<String, Integer> priorities(YamlMap root) {
        Map<String, Integer> result = new LinkedHashMap<>();
        if (!root.has("priorities")) return result;
        YamlMap levels = root.map("priorities");
        if (levels == null) throw root.error("priorities", "expected a mapping of names to saliences, e.g. priorities: {derive: 100}");
        for (String name : levels.keys()) {
            if (!name.matches("[a-z][A-Za-z0-9]*")) {
                throw levels.error(name, "'" + name + "' must be a word in camelCase, e.g. derive or keepServices (rules write @priority(" + name + "))");
            }
            if (!(levels.java(name) instanceof Number salience) || salience.doubleValue() != salience.intValue()) {
                throw levels.error(name, "the level " + name + " must be a whole number (its salience), e.g. " + name + ": 100");
            }
            result.put(name, salience.intValue());
        }
        return result;
    }

    private static Map<String, Parameter> parameters(YamlMap root) {
        Map<String, Parameter> result = new LinkedHashMap<>();
        YamlMap params = root.map("parameters");
        if (params == null) return result;
        for (String name : params.keys()) {
            Node node = params.node(name);
            Parameter parameter;
            if (node instanceof org.yaml.snakeyaml.nodes.MappingNode) {
                YamlMap full = params.map(name);
                full.allowOnly(keysOf("parameters.NAME"));
                Object defaultValue = full.java("default");
                Parameter.Type type = full.optional("type", Parameter.Type.of(defaultValue), Parameter.Type::parse);
                parameter = new Parameter(name, type, defaultValue, full.optionalString("description", ""));
                try {
                    parameter = new Parameter(name, type, parameter.convert(defaultValue), parameter.description());
                } catch (IllegalArgumentException e) {
                    throw full.error("default", e.getMessage());
                }
            } else {
                Object value = params.java(name);
                parameter = new Parameter(name, Parameter.Type.of(value), value, "");
            }
            result.put(name, parameter);
        }
        return result;
    }

    private static Limits limits(YamlMap root) {
        YamlMap limits = root.map("limits");
        if (limits == null) return Limits.defaults();
        limits.allowOnly(keysOf("limits"));
        int maxFirings = limits.optional("maxFirings", Limits.DEFAULT_MAX_FIRINGS, BundleSpecParser::positive);
        int maxActions = limits.optional("maxActions", Limits.DEFAULT_MAX_ACTIONS, BundleSpecParser::positive);
        boolean anyNamespace = limits.optional("namespaces", false, text -> switch (text) {
            case "primary" -> false;
            case "any" -> true;
            default -> throw new IllegalArgumentException("'" + text + "' is not a namespace policy: use primary or any");
        });
        List<String> protectedKinds = Limits.DEFAULT_PROTECTED_KINDS;
        if (limits.has("protectedKinds")) {
            protectedKinds = new ArrayList<>();
            for (Node node : limits.list("protectedKinds")) protectedKinds.add(String.valueOf(YamlFile.toJava(node)));
        }
        Duration cycleDeadline = limits.optional("cycleDeadline", null, BundleSpecParser::positiveDuration);
        return new Limits(maxFirings, maxActions, anyNamespace, protectedKinds, cycleDeadline);
    }

    private static Duration positiveDuration(String text) {
        Duration value = Durations.parse(text.trim());
        if (value.isZero()) throw new IllegalArgumentException("'" + text + "' must be longer than 0s");
        return value;
    }

    private static int positive(String text) {
        try {
            int value = Integer.parseInt(text.trim());
            if (value > 0) return value;
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException("'" + text + "' must be a whole number above 0");
    }

    /** For callers that want the problem rather than the exception. */
    public static InvalidInputException invalid(String message) {
        return new InvalidInputException(dev.runbook.engine.problem.Problem.inFile(FILE, message));
    }
}
