package dev.runbook.engine.state;

import dev.runbook.engine.bundle.CrdSchemas;
import dev.runbook.engine.problem.Problem;
import dev.runbook.engine.yaml.YamlFile;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

import java.util.List;
import java.util.Map;

/**
 * Whether an object written in a state file holds only values of the types the API server would send:
 * state files stand for what is observed, and an observed object never has a number where the API has
 * a string. YAML reads an unquoted {@code 5} as a number, {@code True} as a boolean: left alone, such a
 * value would reach the rules, and the status they write, as a type no cluster ever shows them. Checked
 * on the YAML as written, so that each problem names its file, line and column:
 * <ul>
 *   <li>every object's labels and annotations, and a ConfigMap's {@code data}, are strings;</li>
 *   <li>the fields of each of {@code status.conditions} ({@code type}, {@code status}, {@code reason},
 *       {@code message}, {@code lastTransitionTime}) are strings: {@code status: True} is not;</li>
 *   <li>an object of a kind the bundle's CRDs define has the type its schema gives each field, and no field
 *       outside it (the API server prunes what the schema does not declare).</li>
 * </ul>
 * A {@code null} is left alone: the API server drops it.
 */
public final class ApiTypes {
    /** The checks that need no CRD. */
    public static final ApiTypes GENERIC = new ApiTypes(CrdSchemas.NONE);
    private static final List<String> CONDITION_FIELDS = List.of("type", "status", "reason", "message", "lastTransitionTime");

    private final CrdSchemas crds;

    private ApiTypes(CrdSchemas crds) {
        this.crds = crds;
    }

    /** The generic checks and, for the kinds these CRDs define, their schemas. */
    public static ApiTypes of(CrdSchemas crds) {
        return new ApiTypes(crds);
    }

    /** Adds a problem for each value of {@code object} the API server would not send as written. */
    public void check(String file, MappingNode object, String apiVersion, String kind, List<Problem> problems) {
        Node metadata = child(object, "metadata");
        for (String group : List.of("labels", "annotations")) {
            stringValues(file, child(metadata, group), "metadata." + group, group, problems);
        }
        if ("ConfigMap".equals(kind) && "v1".equals(apiVersion)) {
            stringValues(file, child(object, "data"), "data", "ConfigMap data", problems);
        }
        if (child(child(object, "status"), "conditions") instanceof SequenceNode conditions) {
            for (int i = 0; i < conditions.getValue().size(); i++) {
                Node condition = conditions.getValue().get(i);
                for (String field : CONDITION_FIELDS) {
                    Node value = child(condition, field);
                    if (value instanceof ScalarNode scalar && !isString(scalar)) {
                        problems.add(YamlFile.at(file, value, "status.conditions[" + i + "]." + field + ": " + scalar.getValue() + " is "
                                + typeOf(scalar) + ", but the API server sends a condition's " + field + " as a string: quote it ('"
                                + scalar.getValue() + "')"));
                    }
                }
            }
        }
        Map<String, Object> schema = crds.schema(apiVersion, kind);
        if (schema == null) return;
        String source = crds.source(apiVersion, kind);
        for (NodeTuple tuple : object.getValue()) {
            String key = key(tuple);
            if (List.of("apiVersion", "kind", "metadata").contains(key)) continue;
            Map<String, Object> fieldSchema = property(schema, key);
            if (fieldSchema == null) {
                problems.add(YamlFile.at(file, tuple.getKeyNode(), key + " is not in the schema of " + kind + " (" + source
                        + "): the API server drops it when it stores the object; remove it, or declare it in the CRD"));
            } else {
                bySchema(file, tuple.getValueNode(), fieldSchema, key, kind, source, problems);
            }
        }
    }

    private static void stringValues(String file, Node map, String path, String what, List<Problem> problems) {
        if (!(map instanceof MappingNode mapping)) return;
        for (NodeTuple tuple : mapping.getValue()) {
            if (tuple.getValueNode() instanceof ScalarNode scalar && !isString(scalar)) {
                problems.add(YamlFile.at(file, scalar, path + "." + key(tuple) + ": " + scalar.getValue() + " is " + typeOf(scalar)
                        + ", but the API server stores " + what + " as strings (kubectl refuses anything else): quote it ('"
                        + scalar.getValue() + "')"));
            } else if (!(tuple.getValueNode() instanceof ScalarNode)) {
                problems.add(YamlFile.at(file, tuple.getValueNode(), path + "." + key(tuple) + ": a " + what
                        + " value is a string, not a structure"));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void bySchema(String file, Node node, Map<String, Object> schema, String path, String kind, String source,
                          List<Problem> problems) {
        if (node instanceof ScalarNode scalar && Tag.NULL.equals(scalar.getTag())) return;
        if (Boolean.TRUE.equals(schema.get("x-kubernetes-preserve-unknown-fields")) && schema.get("type") == null) return;
        if (Boolean.TRUE.equals(schema.get("x-kubernetes-int-or-string"))) {
            if (!(node instanceof ScalarNode scalar) || !(isString(scalar) || Tag.INT.equals(scalar.getTag()))) {
                problems.add(mismatch(file, node, path, "an integer or a string", kind, source));
            }
            return;
        }
        String type = String.valueOf(schema.get("type"));
        switch (type) {
            case "object" -> {
                if (!(node instanceof MappingNode mapping)) {
                    problems.add(mismatch(file, node, path, "an object", kind, source));
                    return;
                }
                if (Boolean.TRUE.equals(schema.get("x-kubernetes-preserve-unknown-fields")) && !(schema.get("properties") instanceof Map)) return;
                for (NodeTuple tuple : mapping.getValue()) {
                    String key = key(tuple);
                    Map<String, Object> child = property(schema, key);
                    if (child != null) {
                        bySchema(file, tuple.getValueNode(), child, path + "." + key, kind, source, problems);
                    } else if (!Boolean.TRUE.equals(schema.get("x-kubernetes-preserve-unknown-fields"))
                            && !Boolean.TRUE.equals(schema.get("additionalProperties"))) {
                        problems.add(YamlFile.at(file, tuple.getKeyNode(), path + "." + key + " is not in the schema of " + kind
                                + " (" + source + "): the API server drops it when it stores the object; remove it, or declare it in the CRD"));
                    }
                }
            }
            case "array" -> {
                if (!(node instanceof SequenceNode sequence)) {
                    problems.add(mismatch(file, node, path, "a list", kind, source));
                    return;
                }
                if (!(schema.get("items") instanceof Map<?, ?> items)) return;
                for (int i = 0; i < sequence.getValue().size(); i++) {
                    bySchema(file, sequence.getValue().get(i), (Map<String, Object>) items, path + "[" + i + "]", kind, source, problems);
                }
            }
            case "string" -> {
                if (!(node instanceof ScalarNode scalar) || !isString(scalar)) problems.add(mismatch(file, node, path, "a string", kind, source));
            }
            case "integer" -> {
                if (!(node instanceof ScalarNode scalar) || !Tag.INT.equals(scalar.getTag())) problems.add(mismatch(file, node, path, "an integer", kind, source));
            }
            case "number" -> {
                if (!(node instanceof ScalarNode scalar) || !(Tag.INT.equals(scalar.getTag()) || Tag.FLOAT.equals(scalar.getTag()))) {
                    problems.add(mismatch(file, node, path, "a number", kind, source));
                }
            }
            case "boolean" -> {
                if (!(node instanceof ScalarNode scalar) || !Tag.BOOL.equals(scalar.getTag())) problems.add(mismatch(file, node, path, "a boolean", kind, source));
            }
            default -> { }
        }
    }

    /** The schema of an object's field: a declared property, or additionalProperties' schema; null when neither. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> property(Map<String, Object> schema, String key) {
        if (schema.get("properties") instanceof Map<?, ?> properties && properties.get(key) instanceof Map<?, ?> child) {
            return (Map<String, Object>) child;
        }
        if (schema.get("additionalProperties") instanceof Map<?, ?> additional) return (Map<String, Object>) additional;
        return null;
    }

    private static Problem mismatch(String file, Node node, String path, String wanted, String kind, String source) {
        String found = node instanceof ScalarNode scalar ? scalar.getValue() + " is " + typeOf(scalar)
                : node instanceof MappingNode ? "it is an object" : "it is a list";
        String fix = node instanceof ScalarNode scalar && "a string".equals(wanted) ? ": quote it ('" + scalar.getValue() + "')"
                : node instanceof ScalarNode scalar && isString(scalar) && !wanted.startsWith("an object") && !wanted.startsWith("a list")
                ? ": write it without quotes" : "";
        return YamlFile.at(file, node, path + ": " + found + ", but the schema of " + kind + " (" + source + ") says " + wanted
                + ", so the API server would refuse it" + fix);
    }

    private static boolean isString(ScalarNode scalar) {
        return Tag.STR.equals(scalar.getTag()) || Tag.TIMESTAMP.equals(scalar.getTag());
    }

    private static String typeOf(ScalarNode scalar) {
        Tag tag = scalar.getTag();
        if (Tag.INT.equals(tag) || Tag.FLOAT.equals(tag)) return "a number";
        if (Tag.BOOL.equals(tag)) return "a boolean";
        if (Tag.NULL.equals(tag)) return "null";
        return "a string";
    }

    private static String key(NodeTuple tuple) {
        return tuple.getKeyNode() instanceof ScalarNode scalar ? scalar.getValue() : String.valueOf(tuple.getKeyNode());
    }

    private static Node child(Node node, String key) {
        if (!(node instanceof MappingNode mapping)) return null;
        for (NodeTuple tuple : mapping.getValue()) {
            if (tuple.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) return tuple.getValueNode();
        }
        return null;
    }
}
