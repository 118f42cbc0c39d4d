package dev.runbook.engine.policy;

import dev.runbook.engine.containment.ContainmentLimits;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.yaml.TextFiles;
import dev.runbook.engine.yaml.YamlFile;
import dev.runbook.engine.yaml.YamlMap;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;

import dev.runbook.rules.function.Durations;

import java.nio.file.Path;
import java.time.Duration;
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
 *     kinds: [pods, jobs.batch, statefulsets.apps, services, configmaps]   # or plain: Job (any group)
 * limits:                   # rule code's deadlines and memory, for every bundle; omitted: the defaults
 *   cycleDeadline: 5s
 *   scenarioDeadline: 30s
 *   vettingDeadline: 2m
 *   cycleMemoryMiB: 256
 * isolation:                # where bundles' code runs, by channel (docs/security.md, "The process boundary")
 *   images: in-process      # or isolated
 *   configMaps: isolated    # or in-process
 *   worker: sandbox         # or process, or unix:/run/runbook/worker.sock (the pod's worker container)
 *   workerHeapMiB: 512
 *   workerCpu: 1h
 * </pre>
 *
 * Every error names the file, the line and the field.
 */
public final class PolicyParser {
    /** A policy file larger than this is refused before it is parsed. */
    public static final long MAX_BYTES = 1 << 20;
    /** The largest memory budget a cycle may be given: far above any heap this runs in. */
    private static final long MAX_MEMORY_MIB = 1 << 20;
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    /** What {@link KindName#parse} reads: {@code jobs.batch}, {@code Job.batch}, {@code pods}, the plain {@code Job}. */
    private static final Pattern KIND = Pattern.compile("[A-Za-z][A-Za-z0-9]*(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final String[] SECTION = {"namespaces", "kinds", "clusterScoped", "clusterScopedReads"};

    private PolicyParser() {}

    public static Policy read(Path file) {
        return parse(file.toString(), TextFiles.read(file, file.toString(), MAX_BYTES, "a policy file"));
    }

    /** The policy in {@code text}: the policy file itself, or the ConfigMap manifest that holds it ({@link PolicyManifest}). */
    public static Policy parse(String file, String text) {
        YamlMap root = YamlMap.root(file, YamlFile.document(file, text));
        if (!PolicyManifest.isManifest(root)) return policy(file, root);
        PolicyManifest.Embedded embedded = PolicyManifest.embedded(file, root, text);
        try {
            return policy(file, YamlMap.root(file, YamlFile.document(file, embedded.text())));
        } catch (InvalidInputException e) {
            throw PolicyManifest.placed(file, embedded, e);
        }
    }

    private static Policy policy(String file, YamlMap root) {
        root.allowOnly("defaults", "bundles", "limits", Isolation.KEY);
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
        return new Policy(defaults, bundles, Policy.SYSTEM_NAMESPACES, limits(root.map("limits")), file, false,
                isolation(root.map(Isolation.KEY)));
    }

    private static Isolation isolation(YamlMap map) {
        Isolation defaults = Isolation.DEFAULT;
        if (map == null) return defaults;
        map.allowOnly(Isolation.IMAGES_KEY, Isolation.CONFIG_MAPS_KEY, Isolation.WORKER_KEY, Isolation.HEAP_KEY, Isolation.CPU_KEY);
        Isolation worker = map.optional(Isolation.WORKER_KEY, defaults, defaults::withWorker);
        return new Isolation(
                map.optional(Isolation.IMAGES_KEY, defaults.images(), Isolation::trust),
                map.optional(Isolation.CONFIG_MAPS_KEY, defaults.configMaps(), Isolation::trust),
                worker.worker(), worker.socket(),
                map.optional(Isolation.HEAP_KEY, defaults.workerHeapMiB(), text -> positive(map, text)),
                duration(map, Isolation.CPU_KEY, defaults.workerCpu()));
    }

    private static ContainmentLimits limits(YamlMap map) {
        ContainmentLimits defaults = ContainmentLimits.defaults();
        if (map == null) return defaults;
        map.allowOnly(ContainmentLimits.CYCLE_KEY, ContainmentLimits.SCENARIO_KEY, ContainmentLimits.VETTING_KEY,
                ContainmentLimits.MEMORY_KEY);
        return new ContainmentLimits(
                duration(map, ContainmentLimits.CYCLE_KEY, defaults.cycleDeadline()),
                duration(map, ContainmentLimits.SCENARIO_KEY, defaults.scenarioDeadline()),
                duration(map, ContainmentLimits.VETTING_KEY, defaults.vettingDeadline()),
                map.optional(ContainmentLimits.MEMORY_KEY, defaults.cycleMemoryMiB(), text -> positive(map, text)) * 1024 * 1024);
    }

    private static Duration duration(YamlMap map, String key, Duration fallback) {
        Duration value = map.optional(key, fallback, Durations::parse);
        if (value.isZero()) throw map.error(key, "must be longer than 0s, e.g. " + Durations.format(fallback));
        return value;
    }

    private static long positive(YamlMap map, String text) {
        try {
            long mib = Long.parseLong(text.strip());
            if (mib > 0 && mib <= MAX_MEMORY_MIB) return mib;
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("'" + text + "' is not a whole number of MiB between 1 and " + MAX_MEMORY_MIB + ", e.g. 256");
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
                    : names(map, "kinds", KIND, "a kind, group-qualified as RBAC writes it (e.g. jobs.batch, "
                            + "statefulsets.apps, pods), or the word declared instead of the list");
        }
        Set<String> clusterScoped = map.has("clusterScoped")
                ? names(map, "clusterScoped", KIND, "a cluster-scoped kind, group-qualified (e.g. "
                + "clusterroles.rbac.authorization.k8s.io)")
                : inherited.clusterScoped();
        Set<String> reads = inherited.clusterScopedReads();
        if (map.has("clusterScopedReads")) {
            reads = isWord(map, "clusterScopedReads", "declared") ? null
                    : names(map, "clusterScopedReads", KIND, "a cluster-scoped kind, group-qualified as RBAC writes it (e.g. nodes), or the word declared instead of the list");
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
