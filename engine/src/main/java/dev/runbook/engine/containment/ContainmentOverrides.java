package dev.runbook.engine.containment;

import java.util.function.UnaryOperator;

/**
 * The administrator's overrides of the policy file's limits, as they stand now: for each limit its
 * environment variable, else its system property, as text (null when neither is set).
 *
 * <p>Read on every decision cycle, so they must be cheap to read. A process's environment cannot
 * change while it runs ({@link System#getenv()} is a snapshot taken at start-up), so it is read once,
 * here; system properties can change at any moment (tests set the cycle deadline while an operator
 * runs), so they are read every time: a map look-up each, no parsing. The limits in force are parsed
 * only when these texts or the policy's limits differ from the previous call's
 * ({@link #applyTo(ContainmentLimits)}).
 */
record ContainmentOverrides(String cycle, String scenario, String vetting, String memory) {
    static final String CYCLE_VARIABLE = "RUNBOOK_CYCLE_DEADLINE";
    static final String SCENARIO_VARIABLE = "RUNBOOK_SCENARIO_DEADLINE";
    static final String VETTING_VARIABLE = "RUNBOOK_VETTING_DEADLINE";
    static final String MEMORY_VARIABLE = "RUNBOOK_CYCLE_MEMORY";

    /** The environment's overrides, read once: the environment of a running process is fixed. */
    private static final ContainmentOverrides ENVIRONMENT = read(ContainmentOverrides::variable,
            CYCLE_VARIABLE, SCENARIO_VARIABLE, VETTING_VARIABLE, MEMORY_VARIABLE);

    /** The limits in force computed last, with what they were computed from (all immutable). */
    private record Applied(ContainmentLimits declared, ContainmentOverrides overrides, ContainmentLimits inForce) {}

    private static volatile Applied last;

    /** The overrides now: the environment's, else the system properties' as they are at this moment. */
    static ContainmentOverrides now() {
        return ENVIRONMENT.over(read(System::getProperty, ContainmentLimits.CYCLE_PROPERTY, ContainmentLimits.SCENARIO_PROPERTY,
                ContainmentLimits.VETTING_PROPERTY, ContainmentLimits.MEMORY_PROPERTY));
    }

    /**
     * {@code declared} with these overrides applied; the previous call's result when both are equal to
     * the previous call's (every cycle asks again with the same policy and, nearly always, no change).
     */
    ContainmentLimits applyTo(ContainmentLimits declared) {
        Applied applied = last;
        if (applied != null && applied.declared().equals(declared) && applied.overrides().equals(this)) {
            return applied.inForce();
        }
        ContainmentLimits inForce = declared.overriddenBy(this);
        last = new Applied(declared, this, inForce);
        return inForce;
    }

    /** Each of these overrides where it is set, else {@code fallback}'s. */
    ContainmentOverrides over(ContainmentOverrides fallback) {
        return new ContainmentOverrides(either(cycle, fallback.cycle), either(scenario, fallback.scenario),
                either(vetting, fallback.vetting), either(memory, fallback.memory));
    }

    private static String either(String first, String second) {
        return first != null ? first : second;
    }

    private static ContainmentOverrides read(UnaryOperator<String> source, String cycle, String scenario, String vetting,
                                             String memory) {
        return new ContainmentOverrides(source.apply(cycle), source.apply(scenario), source.apply(vetting), source.apply(memory));
    }

    /** A variable's text, stripped; null when it is unset or blank (as if unset, as before). */
    private static String variable(String name) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? null : value.strip();
    }
}
