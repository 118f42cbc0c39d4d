package dev.runbook.engine.policy;

import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import dev.runbook.engine.yaml.YamlFile;
import dev.runbook.engine.yaml.YamlMap;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;

import java.util.ArrayList;
import java.util.List;

/**
 * The policy as deploy/ and the Helm chart install it: a ConfigMap whose {@code data} holds the policy
 * file under {@value #KEY} (deploy/15-policy.yaml, or {@code kubectl get configmap runbook-policy -o yaml}).
 * So {@code --policy} takes what the administrator installed, without extracting it first; a problem in
 * the policy is reported at its line and column in the manifest.
 */
final class PolicyManifest {
    /** The key deploy/ and the chart put the policy under, and the Deployment mounts. */
    static final String KEY = "policy.yaml";

    /** The policy's text, and where its first line starts in the manifest (0 when that is not known). */
    record Embedded(String text, int firstLine, int indent, Node value) {}

    private PolicyManifest() {}

    /** Whether the document is a Kubernetes object rather than a policy (whose keys are defaults, bundles, limits). */
    static boolean isManifest(YamlMap root) {
        return root.has("kind") || root.has("apiVersion");
    }

    /** The policy a ConfigMap manifest carries; an error naming the manifest's line when it is not one. */
    static Embedded embedded(String file, YamlMap root, String text) {
        String kind = root.optionalString("kind", "");
        if (!"ConfigMap".equals(kind)) {
            throw root.error("kind", "a policy file is the policy itself (defaults, bundles, limits) or the ConfigMap that "
                    + "holds it under data." + KEY + " (deploy/15-policy.yaml), not " + (kind.isEmpty() ? "an object without a kind" : "a " + kind));
        }
        YamlMap data = root.map("data");
        if (data == null || !data.has(KEY)) {
            String missing = "missing: the ConfigMap holds no policy; deploy/ and the chart put it under data." + KEY;
            throw data == null ? root.error("data", missing) : data.error(KEY, missing);
        }
        Node value = data.node(KEY);
        if (!(value instanceof ScalarNode scalar)) throw data.error(KEY, "expected the policy file's text (policy.yaml: |)");
        if (scalar.getScalarStyle() != DumperOptions.ScalarStyle.LITERAL) return new Embedded(scalar.getValue(), 0, 0, value);
        // A literal block's text starts on the line after its `|`, indented as its first line that is not blank.
        String[] lines = text.split("\n", -1);
        int first = scalar.getStartMark().getLine() + 1;
        int indent = 0;
        for (int i = first; i < lines.length; i++) {
            if (!lines[i].isBlank()) {
                indent = lines[i].length() - lines[i].stripLeading().length();
                break;
            }
        }
        return new Embedded(scalar.getValue(), first + 1, indent, value);
    }

    /** The problems of the embedded policy, placed in the manifest. */
    static InvalidInputException placed(String file, Embedded embedded, InvalidInputException e) {
        List<Problem> placed = new ArrayList<>();
        for (Problem problem : e.getProblems()) {
            if (embedded.firstLine() > 0 && problem.line() > 0) {
                placed.add(new Problem(file, embedded.firstLine() + problem.line() - 1,
                        problem.column() > 0 ? problem.column() + embedded.indent() : 0, problem.message()));
            } else {
                String inside = problem.line() > 0 ? "data." + KEY + ":" + problem.line() + ":" + problem.column() + ": " : "data." + KEY + ": ";
                placed.add(YamlFile.at(file, embedded.value(), inside + problem.message()));
            }
        }
        return new InvalidInputException(placed);
    }
}
