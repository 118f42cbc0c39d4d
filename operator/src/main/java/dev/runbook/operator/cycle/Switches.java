package dev.runbook.operator.cycle;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.operator.error.InvalidAnnotationException;
import dev.runbook.rules.fact.Resource;

import java.util.Locale;

/**
 * How a cycle treats its plan, from the bundle's {@code mode} and two annotations on the primary:
 * {@value #MODE} ({@code enforce} or {@code observe}) overrides the bundle's mode for this resource,
 * and {@value #PAUSED}{@code : "true"} stops every action on it. A value the operator does not know
 * is a permanent error rather than a guess.
 */
public record Switches(BundleSpec.Mode mode, boolean paused) {
    public static final String MODE = "runbook.dev/mode";
    public static final String PAUSED = "runbook.dev/paused";

    public static Switches of(Resource primary, BundleSpec spec) {
        BundleSpec.Mode mode = spec.mode();
        String modeValue = primary.annotation(MODE);
        if (modeValue != null) {
            mode = switch (modeValue.trim().toLowerCase(Locale.ROOT)) {
                case "observe" -> BundleSpec.Mode.OBSERVE;
                case "enforce" -> BundleSpec.Mode.ENFORCE;
                default -> throw new InvalidAnnotationException("annotation " + MODE + ": '" + modeValue
                        + "' is not a mode: use observe or enforce (or remove it to follow the bundle's mode, "
                        + spec.mode().name().toLowerCase(Locale.ROOT) + ")");
            };
        }
        String pausedValue = primary.annotation(PAUSED);
        boolean paused = false;
        if (pausedValue != null) {
            paused = switch (pausedValue.trim().toLowerCase(Locale.ROOT)) {
                case "true" -> true;
                case "false", "" -> false;
                default -> throw new InvalidAnnotationException("annotation " + PAUSED + ": '" + pausedValue
                        + "' is not \"true\" or \"false\"");
            };
        }
        return new Switches(mode, paused);
    }

    /** Whether the plan is applied. */
    public boolean acts() { return mode == BundleSpec.Mode.ENFORCE && !paused; }
}
