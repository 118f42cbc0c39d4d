package dev.runbook.engine.containment;

/**
 * Whether the first-line checks run: the checks of a bundle's code against the allow-list when it is
 * compiled (its DRL read through Drools' parser, its templates, its bytecode). They are always on,
 * except in a test that turns them off to show what the boundary behind them holds on its own: the
 * system property {@value #PROPERTY}{@code =off} counts only in a JVM whose class path holds the
 * engine's test classes (the class {@value #TESTS_ONLY}), never in the shipped jar or image. The
 * budget instrumentation of the compiled code is not a check and stays on.
 */
public final class FirstLine {
    public static final String PROPERTY = "runbook.test.firstLineChecks";
    /** A class of the engine's test sources: the property is obeyed only where it can be loaded. */
    static final String TESTS_ONLY = "dev.runbook.engine.containment.FirstLineSwitch";

    private FirstLine() {}

    public static boolean enabled() {
        if (!"off".equals(System.getProperty(PROPERTY))) return true;
        try {
            Class.forName(TESTS_ONLY, false, FirstLine.class.getClassLoader());
            return false;
        } catch (ClassNotFoundException | LinkageError e) {
            return true;
        }
    }
}
