package dev.runbook.cli.why;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.BundleSpecParser;
import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.files.FileTrees;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import dev.runbook.operator.reload.AcceptedBundles;
import dev.runbook.operator.reload.BundleConfigMaps;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Which bundle decides for a primary, as the operator runs it: a {@code --bundle DIR} when given (a
 * version other than the one the primary's {@code status.bundleVersion} names is said, not refused); else
 * the bundle in the operator's namespace whose version is the one in {@code status.bundleVersion}, from
 * the copy the operator accepted ({@code runbook-accepted-*}, what it runs) or else the bundle ConfigMap.
 * A bundle in the operator's image cannot be read from the cluster: then {@code --bundle DIR} is asked for.
 */
public final class RunningBundle {
    /** The bundle found, the primary it decides for, and where the bundle came from; {@code warning} may be null. */
    public record Resolved(CompiledBundle bundle, Map<String, Object> primary, String origin, String warning) {}

    /** A bundle shipped in the operator's namespace, unpacked: where from, its spec, its version, its directory. */
    private record Shipped(String origin, BundleSpec spec, String version, Path directory) {}

    private final KubernetesClient client;
    private final LiveObservation live;
    private final String operatorNamespace;
    private final Function<Path, CompiledBundle> compiler;

    /** @param compiler compiles a bundle directory (the command line's, through the compiled-bundle cache) */
    public RunningBundle(KubernetesClient client, LiveObservation live, String operatorNamespace, Function<Path, CompiledBundle> compiler) {
        this.client = client;
        this.live = live;
        this.operatorNamespace = operatorNamespace;
        this.compiler = compiler;
    }

    /** With the bundle of {@code directory}. */
    public Resolved fromDirectory(Path directory, String namespace, String name) {
        CompiledBundle bundle = compiler.apply(directory);
        Map<String, Object> primary = live.primary(bundle.spec().primary(), namespace, name)
                .orElseThrow(() -> notFound(List.of(bundle.spec().primary()), namespace, name, "bundle " + bundle));
        String running = statusVersion(primary);
        String warning = running.isEmpty() || running.equals(bundle.version()) ? null
                : "the operator last decided for it with version " + running + " (its status.bundleVersion); "
                        + directory + " is version " + bundle.version() + ": this is what that version would do";
        return new Resolved(bundle, primary, directory.toString(), warning);
    }

    /** With the bundle in the operator's namespace that decided for the primary last. */
    public Resolved fromOperatorNamespace(String namespace, String name) {
        List<Shipped> shipped = shipped();
        try {
            if (shipped.isEmpty()) {
                throw new InvalidInputException(Problem.inFile("--bundle", "no bundle ConfigMap (label " + BundleConfigMaps.LABEL
                        + ") in namespace " + operatorNamespace + ": the operator runs the bundles of its image there, which "
                        + "cannot be read from the cluster; give --bundle DIR with the version it runs (or --operator-namespace)"));
            }
            Set<PrimaryKind> kinds = new LinkedHashSet<>();
            shipped.forEach(s -> kinds.add(s.spec().primary()));
            for (PrimaryKind kind : kinds) {
                Optional<Map<String, Object>> primary = live.primary(kind, namespace, name);
                if (primary.isEmpty()) continue;
                String running = statusVersion(primary.get());
                Shipped chosen = shipped.stream().filter(s -> s.spec().primary().equals(kind))
                        .filter(s -> running.isEmpty() || s.version().equals(running)).findFirst()
                        .orElseThrow(() -> new InvalidInputException(Problem.inFile("--bundle", kind.kind().kind() + " " + namespace
                                + "/" + name + " was last decided by bundle version " + running + " (its status.bundleVersion), "
                                + "which no bundle ConfigMap or accepted copy in " + operatorNamespace + " holds (the "
                                + "operator's image holds it?): give --bundle DIR with that version (`runbook lint DIR` prints a "
                                + "bundle's version)")));
                return new Resolved(compiler.apply(chosen.directory()), primary.get(), chosen.origin(), null);
            }
            throw notFound(List.copyOf(kinds), namespace, name, "the bundles in " + operatorNamespace);
        } finally {
            shipped.forEach(s -> FileTrees.deleteQuietly(s.directory()));
        }
    }

    private static InvalidInputException notFound(List<PrimaryKind> kinds, String namespace, String name, String whose) {
        String looked = String.join(", ", kinds.stream().map(k -> k.kind().kind()).toList());
        return new InvalidInputException(Problem.inFile(namespace + "/" + name, "not found: no " + looked + " of that name "
                + "(the kinds of " + whose + ")"));
    }

    @SuppressWarnings("unchecked")
    private static String statusVersion(Map<String, Object> primary) {
        Object status = primary.get("status");
        Object version = status instanceof Map<?, ?> map ? ((Map<String, Object>) map).get("bundleVersion") : null;
        return version == null ? "" : String.valueOf(version);
    }

    /** The accepted copies first (what the operator runs), then the ConfigMaps; each unpacked into a directory. */
    private List<Shipped> shipped() {
        List<Shipped> shipped = new ArrayList<>();
        try {
            for (AcceptedBundles.Accepted copy : new AcceptedBundles(client, operatorNamespace).all()) {
                unpack("secret/" + operatorNamespace + "/" + AcceptedBundles.secretName(copy.configMap())
                        + " (accepted from configmap " + copy.configMap() + ")", copy.data()).ifPresent(shipped::add);
            }
        } catch (KubernetesClientException e) {
            if (e.getCode() != 403) throw e; // Not allowed to read Secrets there: the ConfigMaps tell the same unless a refusal followed.
        }
        for (ConfigMap map : client.configMaps().inNamespace(operatorNamespace).withLabel(BundleConfigMaps.LABEL).list().getItems()) {
            if (map.getData() == null) continue;
            unpack("configmap/" + operatorNamespace + "/" + map.getMetadata().getName(), map.getData()).ifPresent(shipped::add);
        }
        return shipped;
    }

    private static Optional<Shipped> unpack(String origin, Map<String, String> data) {
        Path directory;
        try {
            directory = Files.createTempDirectory("runbook-why-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            BundleConfigMaps.unpack(origin, data, directory);
            BundleSource source = BundleLoader.load(directory);
            BundleSpec spec = BundleSpecParser.parse(source.file(BundleSpecParser.FILE));
            return Optional.of(new Shipped(origin, spec, source.contentHash(), directory));
        } catch (InvalidInputException e) {
            FileTrees.deleteQuietly(directory); // not a bundle the operator could run: not the one that decided
            return Optional.empty();
        }
    }
}
