package dev.runbook.engine.policy;

import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.yaml.TextFiles;
import dev.runbook.engine.yaml.YamlFile;
import dev.runbook.engine.yaml.YamlMap;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the operator's policy file (docs/security.md, "Policy"):
 *
 * <pre>
 * defaults:                 # bundles not named below; omitted: namespaces primary, kinds declared
 *   namespaces: primary     # or a list of namespaces
 *   kinds: declared         # or a list of kinds
 *   clusterScoped: []       # cluster-scoped kinds it may write
 *   clusterScopedReads: declared  # or a list of cluster-scoped kinds it may read (watch), e.g. [Node]
 * bundles:
 *   postgres-cluster:       # a bundle's name; missing keys come from defaults
 *     namespaces: [databases]
 *     kinds: [Pod, Job, StatefulSet, Service, ConfigMap]
 * </pre>
 *
 * Every error names the file, the line and the field.
 */
public final class PolicyParser {
    /** A policy file larger than this is refused before it is parsed. */
    public static final long MAX_BYTES = 1 << 20;
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern KIND = Pattern.compile("[A-Z][A-Za-z0-9]*");
    private static final String[] SECTION = {"namespaces", "kinds", "clusterScoped", "clusterScopedReads"};

    private PolicyParser() {}

    public static Policy read(Path file) {
        return parse(file.toString(), TextFiles.read(file, file.toString(), MAX_BYTES, "a policy file"));
    }

    public static Policy parse(String file, String text) {
        YamlMap root = YamlMap.root(file, YamlFile.document(file, text));
        root.allowOnly("defaults", "bundles");
        YamlMap defaultsMap = root.map("defaults");
        BundlePolicy defaults = defaultsMap == null ? BundlePolicy.DEFAULT : section(defaultsMap, BundlePolicy.DEFAULT);
        Map<String, BundlePolicy> bundles = new LinkedHashMap<>();
        YamlMap bundlesMap = root.map("bundles");
        if (bundlesMap != null) {
            for (String name : bundlesMap.keys()) {
                if (!DNS_LABEL.matcher(name).matches()) {
                    throw bundlesMap.error(name, "'" + name + "' is not a bundle name (a DNS label, as bundle.yaml's name)");
                }
                YamlMap entry = bundlesMap.map(name);
                bundles.put(name, entry == null ? defaults : section(entry, defaults));
            }
        }
        return new Policy(defaults, bundles, Policy.SYSTEM_NAMESPACES, file);
    }

    private static BundlePolicy section(YamlMap map, BundlePolicy inherited) {
        map.allowOnly(SECTION);
        BundlePolicy.Namespaces namespaces = inherited.namespaces();
        if (map.has("namespaces")) {
            namespaces = isWord(map, "namespaces", "primary") ? BundlePolicy.Namespaces.PRIMARY
                    : BundlePolicy.Namespaces.listed(names(map, "namespaces", DNS_LABEL,
                    "a namespace name, or the word primary instead of the list"));
        }
        Set<String> kinds = inherited.kinds();
        if (map.has("kinds")) {
            kinds = isWord(map, "kinds", "declared") ? null
                    : names(map, "kinds", KIND, "a kind such as Pod or StatefulSet, or the word declared instead of the list");
        }
        Set<String> clusterScoped = map.has("clusterScoped")
                ? names(map, "clusterScoped", KIND, "a cluster-scoped kind such as ClusterRole")
                : inherited.clusterScoped();
        Set<String> reads = inherited.clusterScopedReads();
        if (map.has("clusterScopedReads")) {
            reads = isWord(map, "clusterScopedReads", "declared") ? null
                    : names(map, "clusterScopedReads", KIND, "a cluster-scoped kind such as Node, or the word declared instead of the list");
        }
        return new BundlePolicy(namespaces, kinds, clusterScoped, reads);
    }

    private static boolean isWord(YamlMap map, String key, String word) {
        if (!(map.node(key) instanceof ScalarNode)) return false;
        String value = map.optionalString(key, "");
        if (value.equals(word)) return true;
        throw map.error(key, "'" + value + "' is neither " + word + " nor a list");
    }

    private static Set<String> names(YamlMap map, String key, Pattern pattern, String what) {
        Set<String> names = new LinkedHashSet<>();
        for (Node node : map.list(key)) {
            Object value = YamlFile.toJava(node);
            if (!(node instanceof ScalarNode) || value == null || !pattern.matcher(String.valueOf(value)).matches()) {
                throw new InvalidInputException(YamlFile.at(map.file(), node, map.qualified(key) + ": '" + value
                        + "' is not " + what));
            }
            names.add(String.valueOf(value));
        }
        return names;
    }
}
