package dev.runbook.cli.rbac;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.BundleSpecParser;
import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.bundle.SecondaryKind;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import io.fabric8.kubernetes.api.Pluralize;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the operator needs to run a bundle, by the rules of docs/install.md#permissions: the
 * verbs on each {@code group/resource} (the core group is empty), derived from the bundle's
 * {@code bundle.yaml}, its templates (the kinds they make, and what the Roles they make grant: RBAC lets
 * the operator create and bind a Role only with rights it holds itself) and the targets of its rules'
 * actions. {@code runbook rbac}
 * prints it as a Role; {@code DeployManifestsTest} holds deploy/20-rbac.yaml to it.
 */
public final class BundleRbac {
    private static final Pattern CHANGE = Pattern.compile(
            // an action function: called bare or as Actions.x(...), never a method of a fact such as $pod.label("role")
            "(?:(?<![.\\w])|(?<=\\bActions\\.))(label|removeLabel|annotate|removeAnnotation|mergePatch|delete)\\(\\s*([^,)]*\\)?)");
    private static final Pattern GETTER = Pattern.compile("\\.get([A-Z]\\w*)\\(\\)$");
    private static final Pattern PRIMARY_BINDING = Pattern.compile("(\\$\\w+)\\s*:\\s*Primary\\s*\\(");
    private static final Pattern TOP_LEVEL = Pattern.compile("(?m)^(apiVersion|kind):\\s*(\\S+)\\s*$");

    private BundleRbac() {}

    /** The bundle.yaml of the bundle in {@code directory}. */
    public static BundleSpec spec(Path directory) {
        return BundleSpecParser.parse(read(directory.resolve(BundleSpecParser.FILE)));
    }

    /** The verbs on each {@code group/resource} the operator needs for the bundle in {@code directory}. */
    public static Map<String, Set<String>> needed(Path directory) {
        BundleSpec spec = spec(directory);
        Map<String, Set<String>> needed = new TreeMap<>();
        Kind primary = spec.primary().kind();
        String primaryResource = resource(primary.apiVersion(), spec.primary().plural());
        // Watched, patched and updated by the cycle (JOSDK adds a cleanup bundle's finalizer); with --shards
        // also listed and patched by the sharder and the owner (the labels runbook.dev/shard and drain); status
        // through the status subresource; finalizers for blockOwnerDeletion on the owner references.
        need(needed, primaryResource, "get", "list", "watch", "patch", "update");
        need(needed, primaryResource + "/status", "patch");
        need(needed, primaryResource + "/finalizers", "update");
        Map<String, Kind> observed = new TreeMap<>();
        for (SecondaryKind secondary : spec.secondaries()) {
            // A cluster-scoped kind (the Nodes the pods run on) is read across the cluster: no Role can
            // grant that; clusterReads(directory) gives it to a ClusterRole of its own.
            if (secondary.clusterScoped()) continue;
            observed.put(secondary.kind().kind(), secondary.kind());
            need(needed, resourceOf(secondary.kind()), "get", "list", "watch");
        }
        // An apply is a patch, and an apply that creates the object is authorised as a create as well.
        for (Kind made : templateKinds(directory.resolve("templates"))) {
            need(needed, resourceOf(made), "get", "patch", "create");
        }
        for (Map.Entry<String, Set<String>> target : ruleTargets(directory, observed.keySet()).entrySet()) {
            String resource = target.getKey().equals("Primary") ? primaryResource : resourceOf(observed.get(target.getKey()));
            for (String verb : target.getValue()) {
                if (verb.equals("delete")) need(needed, resource, "delete"); else need(needed, resource, "get", "patch");
            }
        }
        need(needed, "/events", "create", "get", "patch");
        // RBAC's escalation check: the operator creates and binds a template's Role only with rights it holds.
        TemplateRoles.grants(directory.resolve("templates")).forEach((resource, verbs) -> need(needed, resource, verbs.toArray(String[]::new)));
        return Collections.unmodifiableMap(needed);
    }

    /**
     * The cluster-scoped kinds the bundle reads (get, list, watch), by {@code group/resource}: granted
     * by a ClusterRole, and only when the policy's {@code clusterScopedReads} allows them.
     */
    public static Map<String, Set<String>> clusterReads(Path directory) {
        Map<String, Set<String>> reads = new TreeMap<>();
        spec(directory).secondaries().stream().filter(SecondaryKind::clusterScoped)
                .forEach(secondary -> need(reads, resourceOf(secondary.kind()), "get", "list", "watch"));
        return Collections.unmodifiableMap(reads);
    }

    /** {@code group/plural}; the core group is the empty string. */
    public static String resource(String apiVersion, String plural) {
        return (apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "") + "/" + plural;
    }

    static String resourceOf(Kind kind) {
        return resource(kind.apiVersion(), Pluralize.toPlural(kind.kind().toLowerCase(Locale.ROOT)));
    }

    private static void need(Map<String, Set<String>> needed, String resource, String... verbs) {
        needed.computeIfAbsent(resource, k -> new TreeSet<>()).addAll(List.of(verbs));
    }

    /** apiVersion and kind of each template: its unindented {@code apiVersion:} and {@code kind:} lines. */
    static List<Kind> templateKinds(Path templates) {
        if (!Files.isDirectory(templates)) return List.of();
        try (Stream<Path> files = Files.list(templates)) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().map(file -> {
                Map<String, String> top = new TreeMap<>();
                Matcher m = TOP_LEVEL.matcher(read(file));
                while (m.find()) top.putIfAbsent(m.group(1), m.group(2));
                if (top.size() < 2) {
                    throw new InvalidInputException(Problem.inFile("templates/" + file.getFileName(),
                            "name the apiVersion and kind at the top level, unindented, so the permissions can be derived"));
                }
                return new Kind(top.get("apiVersion"), top.get("kind"));
            }).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The kinds the rules' label, annotate, mergePatch and delete actions target, each with {@code change}
     * or {@code delete}. A target is the primary (a variable bound to {@code Primary(} in the file) or a
     * getter named after an observed kind ({@code $member.getPod()}, {@code $canary.getDeployment()}).
     * Conditions are skipped ({@link ConditionLines}): a bare {@code label("x")} there reads a fact.
     */
    static Map<String, Set<String>> ruleTargets(Path bundle, Set<String> observedKinds) {
        Path rules = bundle.resolve("rules");
        Map<String, Set<String>> targets = new TreeMap<>();
        if (!Files.isDirectory(rules)) return targets;
        try (Stream<Path> files = Files.list(rules)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".drl")).sorted().toList()) {
                String text = read(file);
                Set<String> primaries = new TreeSet<>();
                Matcher binding = PRIMARY_BINDING.matcher(text);
                while (binding.find()) primaries.add(binding.group(1));
                Set<Integer> conditions = ConditionLines.of("rules/" + file.getFileName(), text);
                List<String> lines = text.lines().toList();
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i).trim();
                    if (line.startsWith("//") || line.startsWith("import ") || conditions.contains(i + 1)) continue;
                    Matcher m = CHANGE.matcher(line);
                    while (m.find()) {
                        String kind = kindOf(m.group(2).trim(), primaries, observedKinds);
                        if (kind == null) {
                            throw new InvalidInputException(new Problem("rules/" + file.getFileName(), i + 1, m.start() + 1,
                                    "which kind does " + m.group(1) + "(" + m.group(2) + " ...) act on? Pass the primary or a getter "
                                            + "named after a kind bundle.yaml observes (e.g. $member.getPod()), so the permissions can be derived"));
                        }
                        targets.computeIfAbsent(kind, k -> new TreeSet<>()).add(m.group(1).equals("delete") ? "delete" : "change");
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return targets;
    }

    private static String kindOf(String target, Set<String> primaries, Set<String> observedKinds) {
        if (primaries.contains(target)) return "Primary";
        Matcher getter = GETTER.matcher(target);
        if (getter.find() && observedKinds.contains(getter.group(1))) return getter.group(1);
        return null;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new InvalidInputException(Problem.inFile(file.getFileName().toString(), "cannot read: " + e.getMessage()));
        }
    }
}
