package dev.runbook.engine.yaml;

import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A YAML mapping read field by field, each error naming the file, the line and the field path, e.g.
 * {@code bundle.yaml:4:18: primary.kind: missing: name the custom resource kind}. Unknown keys are
 * errors too, because a misspelt key silently ignored is a rule that never applies.
 */
public final class YamlMap {
    private final String file;
    private final String path;
    private final MappingNode node;
    private final Map<String, NodeTuple> entries = new LinkedHashMap<>();

    public YamlMap(String file, String path, Node node) {
        this.file = file;
        this.path = path;
        if (!(node instanceof MappingNode mapping)) {
            throw new InvalidInputException(YamlFile.at(file, node, label("") + "expected a mapping of keys to values"));
        }
        this.node = mapping;
        for (NodeTuple tuple : mapping.getValue()) {
            entries.put(String.valueOf(YamlFile.toJava(tuple.getKeyNode())), tuple);
        }
    }

    public static YamlMap root(String file, Node node) {
        return new YamlMap(file, "", node);
    }

    public String file() { return file; }

    public Set<String> keys() { return entries.keySet(); }

    public boolean has(String key) { return entries.containsKey(key); }

    /** Fails on the first key not in {@code allowed}, naming it and the keys that are allowed. */
    public void allowOnly(String... allowed) {
        List<String> known = List.of(allowed);
        for (Map.Entry<String, NodeTuple> entry : entries.entrySet()) {
            if (!known.contains(entry.getKey())) {
                throw new InvalidInputException(YamlFile.at(file, entry.getValue().getKeyNode(),
                        label(entry.getKey()) + "unknown key: expected one of " + known));
            }
        }
    }

    /** The line (from 1) of the value of {@code key}, or of this mapping when the key is absent. */
    public int line(String key) {
        Node at = entries.containsKey(key) ? node(key) : node;
        return at.getStartMark().getLine() + 1;
    }

    /** The line (from 1) where this mapping starts. */
    public int line() {
        return node.getStartMark().getLine() + 1;
    }

    public Node node(String key) {
        NodeTuple tuple = entries.get(key);
        return tuple == null ? null : tuple.getValueNode();
    }

    public Problem problem(String key, String message) {
        Node at = entries.containsKey(key) ? node(key) : node;
        return YamlFile.at(file, at, label(key) + message);
    }

    public InvalidInputException error(String key, String message) {
        return new InvalidInputException(problem(key, message));
    }

    public String string(String key, String whatItIs) {
        String value = optionalString(key, null);
        if (value == null || value.isBlank()) {
            throw error(key, "missing: " + whatItIs);
        }
        return value;
    }

    public String optionalString(String key, String defaultValue) {
        Node value = node(key);
        if (value == null) return defaultValue;
        if (!(value instanceof ScalarNode)) throw error(key, "expected a single value, not a list or a mapping");
        Object java = YamlFile.toJava(value);
        return java == null ? defaultValue : String.valueOf(java);
    }

    public <T> T optional(String key, T defaultValue, Function<String, T> parse) {
        String text = optionalString(key, null);
        if (text == null) return defaultValue;
        try {
            return parse.apply(text);
        } catch (IllegalArgumentException e) {
            throw error(key, e.getMessage());
        }
    }

    public YamlMap map(String key) {
        Node value = node(key);
        if (value == null) return null;
        return new YamlMap(file, qualified(key), value);
    }

    public List<Node> list(String key) {
        Node value = node(key);
        if (value == null) return List.of();
        if (!(value instanceof SequenceNode sequence)) throw error(key, "expected a list");
        return new ArrayList<>(sequence.getValue());
    }

    public YamlMap listItem(String key, int index, Node item) {
        return new YamlMap(file, qualified(key) + "[" + index + "]", item);
    }

    public Object java(String key) {
        Node value = node(key);
        return value == null ? null : YamlFile.toJava(value);
    }

    public String qualified(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    private String label(String key) {
        String field = key.isEmpty() ? path : qualified(key);
        return field.isEmpty() ? "" : field + ": ";
    }
}
