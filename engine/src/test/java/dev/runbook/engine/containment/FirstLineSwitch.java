package dev.runbook.engine.containment;

import java.util.function.Supplier;

/**
 * The test-only switch of the first-line checks ({@link FirstLine}): being on the class path is what
 * lets {@code -Drunbook.test.firstLineChecks=off} turn them off, in this JVM or in a child JVM given
 * the same class path (an isolated worker, an operator started by a test). In this JVM,
 * {@link #off(Supplier)} turns them off around a body.
 */
public final class FirstLineSwitch {
    private FirstLineSwitch() {}

    /** Runs {@code body} with the first-line checks off, and turns them on again. Not for tests that run in parallel. */
    public static <T> T off(Supplier<T> body) {
        String before = System.getProperty(FirstLine.PROPERTY);
        System.setProperty(FirstLine.PROPERTY, "off");
        try {
            return body.get();
        } finally {
            if (before == null) System.clearProperty(FirstLine.PROPERTY); else System.setProperty(FirstLine.PROPERTY, before);
        }
    }

    /** The JVM option that turns them off in a child JVM whose class path holds the engine's test classes. */
    public static String jvmOption() {
        return "-D" + FirstLine.PROPERTY + "=off";
    }
}
