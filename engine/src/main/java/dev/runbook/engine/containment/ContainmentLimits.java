package dev.runbook.engine.containment;

import dev.runbook.rules.function.Durations;

import java.time.Duration;

/**
 * The deadlines and the memory budget the operator grants rule code: one decision cycle, one
 * scenario (all its cycles), and the vetting of a bundle (all its scenarios). A bundle may ask for a
 * shorter cycle deadline ({@code limits.cycleDeadline}); it can never get a longer one.
 *
 * <p>Set with system properties or environment variables, read once where the engine is set up:
 * {@value #CYCLE_PROPERTY} / {@code RUNBOOK_CYCLE_DEADLINE}, {@value #SCENARIO_PROPERTY} /
 * {@code RUNBOOK_SCENARIO_DEADLINE}, {@value #VETTING_PROPERTY} / {@code RUNBOOK_VETTING_DEADLINE},
 * {@value #MEMORY_PROPERTY} / {@code RUNBOOK_CYCLE_MEMORY} (MiB). Defaults are below and in docs/security.md.
 */
public record ContainmentLimits(Duration cycleDeadline, Duration scenarioDeadline, Duration vettingDeadline,
                                long cycleMemoryBytes) {
    public static final Duration DEFAULT_CYCLE_DEADLINE = Duration.ofSeconds(5);
    public static final Duration DEFAULT_SCENARIO_DEADLINE = Duration.ofSeconds(30);
    public static final Duration DEFAULT_VETTING_DEADLINE = Duration.ofMinutes(2);
    public static final long DEFAULT_CYCLE_MEMORY_MIB = 256;

    public static final String CYCLE_PROPERTY = "runbook.cycleDeadline";
    public static final String SCENARIO_PROPERTY = "runbook.scenarioDeadline";
    public static final String VETTING_PROPERTY = "runbook.vettingDeadline";
    public static final String MEMORY_PROPERTY = "runbook.cycleMemoryMiB";
    public static final String CYCLE_NAME = "the operator's cycle deadline (" + CYCLE_PROPERTY + ")";
    public static final String BUNDLE_CYCLE_NAME = "limits.cycleDeadline";
    public static final String SCENARIO_NAME = "the scenario deadline (" + SCENARIO_PROPERTY + ")";
    public static final String VETTING_NAME = "the vetting deadline (" + VETTING_PROPERTY + ")";
    public static final String MEMORY_NAME = MEMORY_PROPERTY;

    public ContainmentLimits {
        positive(cycleDeadline, CYCLE_PROPERTY);
        positive(scenarioDeadline, SCENARIO_PROPERTY);
        positive(vettingDeadline, VETTING_PROPERTY);
        if (cycleMemoryBytes <= 0) throw new IllegalArgumentException(MEMORY_PROPERTY + " must be positive");
    }

    public static ContainmentLimits defaults() {
        return new ContainmentLimits(DEFAULT_CYCLE_DEADLINE, DEFAULT_SCENARIO_DEADLINE, DEFAULT_VETTING_DEADLINE,
                DEFAULT_CYCLE_MEMORY_MIB * 1024 * 1024);
    }

    /** The defaults, overridden by system properties, then by the environment. */
    public static ContainmentLimits standard() {
        return new ContainmentLimits(
                duration(CYCLE_PROPERTY, "RUNBOOK_CYCLE_DEADLINE", DEFAULT_CYCLE_DEADLINE),
                duration(SCENARIO_PROPERTY, "RUNBOOK_SCENARIO_DEADLINE", DEFAULT_SCENARIO_DEADLINE),
                duration(VETTING_PROPERTY, "RUNBOOK_VETTING_DEADLINE", DEFAULT_VETTING_DEADLINE),
                mebibytes(MEMORY_PROPERTY, "RUNBOOK_CYCLE_MEMORY", DEFAULT_CYCLE_MEMORY_MIB) * 1024 * 1024);
    }

    private static String setting(String property, String variable) {
        String env = System.getenv(variable);
        return env != null && !env.isBlank() ? env.strip() : System.getProperty(property);
    }

    private static Duration duration(String property, String variable, Duration fallback) {
        String text = setting(property, variable);
        if (text == null || text.isBlank()) return fallback;
        try {
            return Durations.parse(text.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(property + " / " + variable + ": " + e.getMessage(), e);
        }
    }

    private static long mebibytes(String property, String variable, long fallback) {
        String text = setting(property, variable);
        if (text == null || text.isBlank()) return fallback;
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(property + " / " + variable + ": a whole number of MiB, e.g. 512", e);
        }
    }

    private static void positive(Duration d, String name) {
        if (d == null || d.isZero() || d.isNegative()) throw new IllegalArgumentException(name + " must be positive");
    }
}
