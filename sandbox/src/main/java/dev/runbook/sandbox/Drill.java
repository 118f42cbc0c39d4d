package dev.runbook.sandbox;

import dev.runbook.rules.function.Durations;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A bundle's {@code sandbox.yaml}: the sample to apply and the steps of the drill the sandbox plays on
 * it (see docs/sandbox.md). Each step does one thing, may print a note first, and a milestone once it
 * is done. Everything is checked when the file is read, so a typo fails before the API server starts.
 *
 * @param sample  the sample file, resolved against the bundle directory
 * @param steps   the steps, in order
 * @param summary what the closing line says the drill showed
 */
public record Drill(Path file, Path sample, List<Step> steps, String summary) {
    public static final String FILE = "sandbox.yaml";
    static final Set<String> ACTIONS = Set.of("await", "patch", "advance", "delete", "jobSucceeds", "jobFails", "podReady", "podNotReady");
    private static final Set<String> KEYS = Set.of("note", "milestone", "settled", "of");

    /**
     * One step: {@code action} is one of {@link #ACTIONS} (or null for a note alone) with its argument.
     * For {@code await} the argument is a map of paths in the primary to the values they must have, or
     * {@code gone}; {@code settled} also asks that the last cycle changed nothing; {@code of: Kind/name}
     * awaits the fields of another object in the sample's namespace instead (a Deployment, a Job).
     */
    public record Step(int index, String action, Object argument, String note, String milestone, boolean settled, String of) {
        @SuppressWarnings("unchecked")
        Map<String, Object> fields() { return (Map<String, Object>) argument; }

        Duration duration() { return Durations.parse(String.valueOf(argument)); }
    }

    /** The drill file of a bundle directory. */
    public static Path fileOf(Path bundleDir) { return bundleDir.resolve(FILE); }

    /** Reads and checks the bundle's {@code sandbox.yaml}. */
    public static Drill read(Path bundleDir) {
        Path file = fileOf(bundleDir);
        Object parsed;
        try (InputStream in = Files.newInputStream(file)) {
            parsed = Serialization.unmarshal(in, Map.class);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(file + ": cannot be read as YAML: " + e.getMessage(), e);
        }
        if (!(parsed instanceof Map<?, ?> top)) throw new IllegalArgumentException(file + ": expected a map with sample: and steps:");
        if (!(top.get("sample") instanceof String sample)) {
            throw new IllegalArgumentException(file + ": sample: is missing; name the sample to apply, e.g. sample: samples/release.yaml");
        }
        Path sampleFile = bundleDir.resolve(sample);
        if (!Files.isRegularFile(sampleFile)) throw new IllegalArgumentException(file + ": sample: " + sampleFile + " does not exist");
        if (!(top.get("steps") instanceof List<?> raw) || raw.isEmpty()) {
            throw new IllegalArgumentException(file + ": steps: is missing or empty; list the drill's steps (see docs/sandbox.md)");
        }
        List<Step> steps = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) steps.add(step(file, i, raw.get(i)));
        Object summary = top.get("summary");
        return new Drill(file, sampleFile, List.copyOf(steps), summary == null ? "played " + FILE : String.valueOf(summary));
    }

    private static Step step(Path file, int index, Object raw) {
        String where = file + ": steps[" + index + "]";
        if (!(raw instanceof Map<?, ?> map)) throw new IllegalArgumentException(where + ": expected a map such as {await: {status.phase: Ready}}");
        Map<String, Object> step = new LinkedHashMap<>();
        map.forEach((k, v) -> step.put(String.valueOf(k), v));
        List<String> actions = step.keySet().stream().filter(ACTIONS::contains).toList();
        List<String> unknown = step.keySet().stream().filter(k -> !ACTIONS.contains(k) && !KEYS.contains(k)).toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(where + ": unknown key " + String.join(", ", unknown) + "; a step has one of "
                    + ACTIONS.stream().sorted().toList() + " and may have " + KEYS.stream().sorted().toList());
        }
        if (actions.size() > 1) throw new IllegalArgumentException(where + ": one action per step, not " + actions);
        String action = actions.isEmpty() ? null : actions.get(0);
        if (action == null && step.get("note") == null) throw new IllegalArgumentException(where + ": a step needs an action or a note");
        Object argument = action == null ? null : step.get(action);
        check(where + "." + action, action, argument);
        Object settled = step.getOrDefault("settled", false);
        if (!(settled instanceof Boolean)) throw new IllegalArgumentException(where + ".settled: true or false, not " + settled);
        if ((Boolean) settled && !"await".equals(action)) throw new IllegalArgumentException(where + ".settled: only an await step waits to settle");
        String of = text(step.get("of"));
        if (of != null && (!"await".equals(action) || !(argument instanceof Map<?, ?>) || (Boolean) settled || !of.matches("[A-Za-z]+/[a-z0-9.-]+"))) {
            throw new IllegalArgumentException(where + ".of: Kind/name (e.g. Deployment/shop-canary) with an await of fields and without settled");
        }
        return new Step(index, action, argument, text(step.get("note")), text(step.get("milestone")), (Boolean) settled, of);
    }

    private static void check(String where, String action, Object argument) {
        if (action == null) return;
        switch (action) {
            case "await" -> {
                if (!"gone".equals(argument) && !(argument instanceof Map<?, ?> m && !m.isEmpty())) {
                    throw new IllegalArgumentException(where + ": a map of paths to values ({status.phase: Ready}) or gone, not " + argument);
                }
            }
            case "patch" -> {
                if (!(argument instanceof Map<?, ?> m) || m.isEmpty()) {
                    throw new IllegalArgumentException(where + ": a JSON merge patch of the primary, e.g. {spec: {version: 1.1.0}}");
                }
            }
            case "advance" -> {
                try {
                    Durations.parse(String.valueOf(argument));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(where + ": a duration such as 2m: " + e.getMessage(), e);
                }
            }
            case "delete" -> {
                if (!Boolean.TRUE.equals(argument)) throw new IllegalArgumentException(where + ": delete: true deletes the primary");
            }
            default -> {
                if (!(argument instanceof String name) || name.isBlank()) {
                    throw new IllegalArgumentException(where + ": the name of the " + (action.startsWith("job") ? "Job" : "Pod"));
                }
            }
        }
    }

    private static String text(Object value) {
        return value == null ? null : String.valueOf(value);
    }
}
