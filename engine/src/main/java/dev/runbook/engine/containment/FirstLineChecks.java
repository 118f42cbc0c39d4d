package dev.runbook.engine.containment;

/**
 * Whether a compile runs the first-line checks: the allow-list checks of rule and template expressions
 * and of the compiled bytecode ({@link ExpressionContainment}, {@link CodeContainment#check}). Always,
 * except in a test build that turns them off to prove that the process boundary holds without them
 * (docs/security.md, "The process boundary"): the property {@value #PROPERTY}{@code =off} counts only
 * when the resource {@value #TEST_BUILD_MARKER} is on the class path, and only the engine's test
 * resources hold it, so no jar the build ships can have the checks turned off.
 *
 * <p>The budget instrumentation of bundle classes ({@link CodeContainment#instrument}) is not a check
 * and stays on either way.
 */
public final class FirstLineChecks {
    public static final String PROPERTY = "runbook.test.firstLineChecks";
    static final String TEST_BUILD_MARKER = "dev/runbook/engine/containment/test-build";

    private FirstLineChecks() {}

    /** False only in a test build with {@value #PROPERTY}{@code =off}. */
    public static boolean enabled() {
        return !"off".equals(System.getProperty(PROPERTY)) || !isTestBuild();
    }

    /** Whether this class path is a test build's: the marker resource is there. */
    static boolean isTestBuild() {
        return FirstLineChecks.class.getClassLoader().getResource(TEST_BUILD_MARKER) != null;
    }
}
