package dev.runbook.engine.state;

import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import dev.runbook.engine.yaml.TextFiles;
import dev.runbook.engine.yaml.YamlFile;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads observed state: multi-document YAML files of Kubernetes objects, as {@code kubectl get -o yaml}
 * writes them ({@code kind: List} with {@code items} included). Every object needs apiVersion, kind
 * and metadata.name; a document that is not an object is an error naming its file and line, and so is a
 * value of another type than the API server would send ({@link ApiTypes}: labels and annotations are
 * strings; a bundle's own kinds follow its CRDs).
 */
public final class StateFiles {
    private StateFiles() {}

    /** The objects of the files, with the checks that need no CRD. */
    public static List<ObservedObject> read(List<Path> files) {
        return read(files, ApiTypes.GENERIC);
    }

    /** The objects of the files, each value checked as {@code types} says. */
    public static List<ObservedObject> read(List<Path> files, ApiTypes types) {
        List<ObservedObject> objects = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        for (Path file : files) {
            parse(file.toString(), TextFiles.read(file, file.toString(), TextFiles.MAX_INPUT_BYTES, "a state file"),
                    objects, problems, types);
        }
        if (!problems.isEmpty()) throw new InvalidInputException(problems);
        return objects;
    }

    /** Parses one file's text; objects and problems are added to the given lists. */
    public static void parse(String file, String text, List<ObservedObject> objects, List<Problem> problems, ApiTypes types) {
        for (Node document : YamlFile.documents(file, text)) {
            addObject(file, document, objects, problems, types);
        }
    }

    /**
     * One object of a state file or a scenario's {@code state:}: null (and a problem added) when it is not
     * an object, lacks its identity, or holds a value of another type than the API server would send.
     */
    public static ObservedObject object(String file, Node node, List<Problem> problems, ApiTypes types) {
        List<ObservedObject> one = new ArrayList<>();
        addObject(file, node, one, problems, types);
        return one.isEmpty() ? null : one.get(0);
    }

    private static void addObject(String file, Node node, List<ObservedObject> objects, List<Problem> problems, ApiTypes types) {
        if (!(node instanceof MappingNode mapping)) {
            problems.add(YamlFile.at(file, node, "expected a Kubernetes object (a mapping with apiVersion, kind, metadata)"));
            return;
        }
        if ("List".equals(scalar(mapping, "kind"))) {
            Node items = value(mapping, "items");
            if (items instanceof SequenceNode sequence) {
                for (Node item : sequence.getValue()) addObject(file, item, objects, problems, types);
            }
            return;
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> object = (Map<String, Object>) YamlFile.toJava(mapping);
        String missing = missingField(object);
        if (missing != null) {
            problems.add(YamlFile.at(file, node, missing + ": missing: every object needs apiVersion, kind and metadata.name"));
            return;
        }
        int before = problems.size();
        types.check(file, mapping, String.valueOf(object.get("apiVersion")), String.valueOf(object.get("kind")), problems);
        if (problems.size() > before) return;
        objects.add(new ObservedObject(object, file, node.getStartMark().getLine() + 1));
    }

    private static String missingField(Map<String, Object> object) {
        if (object.get("apiVersion") == null) return "apiVersion";
        if (object.get("kind") == null) return "kind";
        if (!(object.get("metadata") instanceof Map<?, ?> metadata) || metadata.get("name") == null) return "metadata.name";
        return null;
    }

    private static Node value(MappingNode mapping, String key) {
        for (NodeTuple tuple : mapping.getValue()) {
            if (tuple.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) return tuple.getValueNode();
        }
        return null;
    }

    private static String scalar(MappingNode mapping, String key) {
        return value(mapping, key) instanceof ScalarNode s ? s.getValue() : null;
    }
}
