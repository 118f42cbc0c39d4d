package dev.runbook.engine.containment;

import dev.runbook.rules.function.Durations;

import java.time.Duration;

/**
 * The deadlines and the memory budget the operator grants rule code: one decision cycle, one
 * scenario (all its cycles), and the vetting of a bundle (all its scenarios). A bundle may ask for a
 * shorter cycle deadline ({@code limits.cycleDeadline} in bundle.yaml); it can never get a longer one.
 *
 * <p>Owned by the operator's administrator: the policy file's {@code limits} section sets them
 * ({@link dev.runbook.engine.policy.PolicyParser}); a system property or an environment variable, also
 * the administrator's, overrides the file for one setting ({@link #overriddenBySettings()}):
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
    private static final long MIB = 1024 * 1024;

    public static final String CYCLE_PROPERTY = "runbook.cycleDeadline";
    public static final String SCENARIO_PROPERTY = "runbook.scenarioDeadline";
    public static final String VETTING_PROPERTY = "runbook.vettingDeadline";
    public static final String MEMORY_PROPERTY = "runbook.cycleMemoryMiB";
    /** The keys of the policy file's {@code limits} section. */
    public static final String CYCLE_KEY = "cycleDeadline";
    public static final String SCENARIO_KEY = "scenarioDeadline";
    public static final String VETTING_KEY = "vettingDeadline";
    public static final String MEMORY_KEY = "cycleMemoryMiB";
    public static final String CYCLE_NAME = "the operator's cycle deadline (the policy's limits." + CYCLE_KEY + ")";
    public static final String BUNDLE_CYCLE_NAME = "limits.cycleDeadline";
    public static final String SCENARIO_NAME = "the scenario deadline (the policy's limits." + SCENARIO_KEY + ")";
    public static final String VETTING_NAME = "the vetting deadline (the policy's limits." + VETTING_KEY + ")";
    public static final String MEMORY_NAME = "the policy's limits." + MEMORY_KEY;

    public ContainmentLimits {
        positive(cycleDeadline, CYCLE_PROPERTY);
        positive(scenarioDeadline, SCENARIO_PROPERTY);
        positive(vettingDeadline, VETTING_PROPERTY);
        if (cycleMemoryBytes <= 0) throw new IllegalArgumentException(MEMORY_PROPERTY + " must be positive");
    }

    public static ContainmentLimits defaults() {
        return new ContainmentLimits(DEFAULT_CYCLE_DEADLINE, DEFAULT_SCENARIO_DEADLINE, DEFAULT_VETTING_DEADLINE,
                DEFAULT_CYCLE_MEMORY_MIB * MIB);
    }

    /** The defaults, overridden by system properties, then by the environment. */
    public static ContainmentLimits standard() {
        return defaults().overriddenBySettings();
    }

    /**
     * These limits (the policy file's), each overridden by its environment variable, else its system
     * property, as they are now. Cheap enough for every cycle: see {@link ContainmentOverrides}.
     */
    public ContainmentLimits overriddenBySettings() {
        return ContainmentOverrides.now().applyTo(this);
    }

    /** These limits with {@code overrides} (texts, unparsed) applied. */
    ContainmentLimits overriddenBy(ContainmentOverrides overrides) {
        return new ContainmentLimits(
                duration(CYCLE_PROPERTY, ContainmentOverrides.CYCLE_VARIABLE, overrides.cycle(), cycleDeadline),
                duration(SCENARIO_PROPERTY, ContainmentOverrides.SCENARIO_VARIABLE, overrides.scenario(), scenarioDeadline),
                duration(VETTING_PROPERTY, ContainmentOverrides.VETTING_VARIABLE, overrides.vetting(), vettingDeadline),
                mebibytes(MEMORY_PROPERTY, ContainmentOverrides.MEMORY_VARIABLE, overrides.memory(), cycleMemoryBytes / MIB) * MIB);
    }

    /** The cycle's memory budget in MiB, as the policy file writes it. */
    public long cycleMemoryMiB() {
        return cycleMemoryBytes / MIB;
    }

    /**
     * One line per limit, for {@code runbook lint --policy}: these limits (in force), each marked where
     * it differs from {@code declared} (the policy file's) because a property or variable overrides it.
     */
    public java.util.List<String> describe(ContainmentLimits declared) {
        return java.util.List.of(
                line(CYCLE_KEY, Durations.format(cycleDeadline), Durations.format(declared.cycleDeadline), ContainmentOverrides.CYCLE_VARIABLE),
                line(SCENARIO_KEY, Durations.format(scenarioDeadline), Durations.format(declared.scenarioDeadline),
                        ContainmentOverrides.SCENARIO_VARIABLE),
                line(VETTING_KEY, Durations.format(vettingDeadline), Durations.format(declared.vettingDeadline),
                        ContainmentOverrides.VETTING_VARIABLE),
                line(MEMORY_KEY, Long.toString(cycleMemoryMiB()), Long.toString(declared.cycleMemoryMiB()), ContainmentOverrides.MEMORY_VARIABLE));
    }

    private static String line(String key, String inForce, String declared, String variable) {
        return "limits." + key + ": " + inForce + (inForce.equals(declared) ? ""
                : " (overridden by " + variable + " or its system property; the policy says " + declared + ")");
    }

    private static Duration duration(String property, String variable, String text, Duration fallback) {
        if (text == null || text.isBlank()) return fallback;
        try {
            return Durations.parse(text.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(property + " / " + variable + ": " + e.getMessage(), e);
        }
    }

    private static long mebibytes(String property, String variable, String text, long fallback) {
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
