package dev.runbook.engine.yaml;

import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

import java.io.StringReader;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads YAML keeping where each value came from, so that a bad value is reported as
 * {@code file:line:col}. Values become plain Java (maps, lists, strings, numbers, booleans);
 * timestamps stay strings, as Kubernetes writes them.
 */
public final class YamlFile {
    /**
     * A {@code Yaml} is costly to build and not thread-safe; composing holds no state between calls,
     * so each thread keeps one.
     */
    private static final ThreadLocal<Yaml> YAML = ThreadLocal.withInitial(YamlFile::newYaml);

    private YamlFile() {}

    /** Every document of a multi-document file, as located nodes. Empty documents are skipped. */
    public static List<Node> documents(String file, String text) {
        try {
            List<Node> nodes = new ArrayList<>();
            for (Node node : yaml().composeAll(new StringReader(text))) {
                if (node != null) nodes.add(node);
            }
            return nodes;
        } catch (MarkedYAMLException e) {
            throw new InvalidInputException(at(file, e.getProblemMark(),
                    "not valid YAML: " + e.getProblem() + (e.getContext() == null ? "" : " " + e.getContext())));
        } catch (RuntimeException e) {
            throw new InvalidInputException(Problem.inFile(file, "not valid YAML: " + e.getMessage()));
        }
    }

    /** The single document of a file; an empty file is an error. */
    public static Node document(String file, String text) {
        List<Node> docs = documents(file, text);
        if (docs.isEmpty()) {
            throw new InvalidInputException(Problem.inFile(file, "the file is empty"));
        }
        if (docs.size() > 1) {
            throw new InvalidInputException(at(file, docs.get(1).getStartMark(), "expected one YAML document, found several"));
        }
        return docs.get(0);
    }

    private static Yaml yaml() {
        return YAML.get();
    }

    private static Yaml newYaml() {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        options.setMaxAliasesForCollections(50);
        return new Yaml(options);
    }

    public static Problem at(String file, Mark mark, String message) {
        return mark == null ? Problem.inFile(file, message)
                : new Problem(file, mark.getLine() + 1, mark.getColumn() + 1, message);
    }

    public static Problem at(String file, Node node, String message) {
        return at(file, node == null ? null : node.getStartMark(), message);
    }

    /** The plain Java value of a node. */
    public static Object toJava(Node node) {
        if (node instanceof MappingNode mapping) {
            Map<String, Object> map = new LinkedHashMap<>();
            for (NodeTuple tuple : mapping.getValue()) {
                map.put(String.valueOf(toJava(tuple.getKeyNode())), toJava(tuple.getValueNode()));
            }
            return map;
        }
        if (node instanceof SequenceNode sequence) {
            List<Object> list = new ArrayList<>();
            for (Node item : sequence.getValue()) list.add(toJava(item));
            return list;
        }
        if (node instanceof ScalarNode scalar) {
            return scalar(scalar);
        }
        return null;
    }

    private static Object scalar(ScalarNode scalar) {
        String text = scalar.getValue();
        Tag tag = scalar.getTag();
        if (Tag.NULL.equals(tag)) return null;
        if (Tag.BOOL.equals(tag)) return Boolean.parseBoolean(text.toLowerCase());
        if (Tag.INT.equals(tag)) {
            try {
                BigInteger value = new BigInteger(text.replace("_", ""));
                return value.bitLength() < 64 ? (Object) value.longValue() : value;
            } catch (NumberFormatException e) {
                return text;
            }
        }
        if (Tag.FLOAT.equals(tag)) {
            try {
                return Double.parseDouble(text.replace("_", ""));
            } catch (NumberFormatException e) {
                return text;
            }
        }
        return text;
    }
}
