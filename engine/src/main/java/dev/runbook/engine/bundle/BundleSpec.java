package dev.runbook.engine.bundle;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** What {@code bundle.yaml} says: see docs/reference/bundle.md for every field. */
public record BundleSpec(
        String name,
        String version,
        String description,
        PrimaryKind primary,
        List<SecondaryKind> secondaries,
        Duration reconcilePeriod,
        Mode mode,
        String fieldManager,
        Map<String, Parameter> parameters,
        Limits limits,
        Cleanup cleanup,
        Pause pause,
        Map<String, Integer> priorities) {

    public static final Duration DEFAULT_RECONCILE_PERIOD = Duration.ofMinutes(5);

    /** Whether the operator acts on a plan or only records it. */
    public enum Mode { ENFORCE, OBSERVE }

    /** Whether the bundle's rules act on deleted primaries (a {@code cleanup:} section): then a finalizer holds them. */
    public boolean hasCleanup() { return cleanup != null; }

    /** The finalizer this bundle puts on its primaries when it {@link #hasCleanup() has cleanup}. */
    public String finalizer() { return Cleanup.finalizer(name); }

    /** Whether bundle.yaml declares how a primary is paused and {@code primary} is paused so. */
    public boolean paused(dev.runbook.rules.fact.Resource primary) { return pause != null && pause.holds(primary); }

    public BundleSpec {
        secondaries = List.copyOf(secondaries);
        parameters = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(parameters));
        priorities = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(priorities));
    }
}
