package dev.runbook.benchmarks;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.BundleSpecParser;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.state.ObservationBuilder;
import dev.runbook.engine.state.StateFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The shipped bundles' own samples, as benchmark inputs: every {@code runbooks/<bundle>/samples/*.yaml}
 * that holds the bundle's primary, named {@code <bundle>/<sample>} (e.g. {@code postgres-cluster/primary-failed}).
 * The runbooks directory is {@code -Drunbook.runbooks=...}, else {@code runbooks/} under the working
 * directory or one of its parents.
 */
final class ShippedSamples {
    /** The time every sample is decided at: the one the docs' {@code runbook plan} examples use. */
    static final Instant NOW = Instant.parse("2026-11-30T09:00:00Z");

    private ShippedSamples() {}

    static Path runbooks() {
        String configured = System.getProperty("runbook.runbooks");
        if (configured != null) return Path.of(configured);
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("runbooks");
            if (Files.isDirectory(candidate) && !bundles(candidate).isEmpty()) return candidate;
        }
        throw new IllegalStateException("no runbooks/ directory here or above: run from the repository, "
                + "or pass -Drunbook.runbooks=PATH");
    }

    /** Bundle directories: those with a bundle.yaml. */
    static List<Path> bundles(Path runbooks) {
        try (Stream<Path> dirs = Files.list(runbooks)) {
            return dirs.filter(d -> Files.isRegularFile(d.resolve("bundle.yaml"))).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every sample of every shipped bundle, as {@code bundle/sample}. */
    static List<String> all() {
        Path runbooks = runbooks();
        return bundles(runbooks).stream().flatMap(bundle -> {
            try (Stream<Path> files = Files.list(bundle.resolve("samples"))) {
                return files.filter(f -> f.getFileName().toString().endsWith(".yaml")).sorted()
                        .map(f -> bundle.getFileName() + "/" + f.getFileName().toString().replaceFirst("\\.yaml$", ""))
                        .toList().stream();
            } catch (IOException e) {
                return Stream.empty();
            }
        }).filter(ShippedSamples::holdsPrimary).toList();
    }

    static CompiledBundle compile(String sample) {
        return BundleCompiler.compile(BundleLoader.load(runbooks().resolve(bundleOf(sample))));
    }

    /** The directory of the bundle a sample belongs to. */
    static Path bundleDirectory(String sample) {
        return runbooks().resolve(bundleOf(sample));
    }

    static Observation observation(CompiledBundle bundle, String sample) {
        Path file = runbooks().resolve(bundleOf(sample)).resolve("samples").resolve(sampleOf(sample) + ".yaml");
        return ObservationBuilder.build(bundle.spec(), StateFiles.read(List.of(file)), null, NOW, Map.of());
    }

    /**
     * A sample that is a whole state: the bundle's primary and what was observed with it. A sample that
     * is only part of one (a lone custom resource to apply, objects to add to another sample) is no
     * cycle input on its own.
     */
    private static boolean holdsPrimary(String sample) {
        try {
            Path bundle = runbooks().resolve(bundleOf(sample));
            BundleSpec spec = BundleSpecParser.parse(Files.readString(bundle.resolve(BundleSpecParser.FILE)));
            Path file = bundle.resolve("samples").resolve(sampleOf(sample) + ".yaml");
            var objects = StateFiles.read(List.of(file));
            ObservationBuilder.build(spec, objects, null, NOW, Map.of());
            return objects.size() > 1;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static String bundleOf(String sample) { return sample.substring(0, sample.indexOf('/')); }

    private static String sampleOf(String sample) { return sample.substring(sample.indexOf('/') + 1); }
}
