package dev.runbook.operator.testkit;

import dev.runbook.engine.policy.Isolation;
import dev.runbook.operator.isolation.WorkerCheck;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Whether this machine can start the operator's sandboxed workers, asked once per test JVM through the
 * operator's own start-up check ({@link WorkerCheck}), so that a missing sandbox is one clear reason per
 * test class instead of a refused bundle deep in its assertions. See {@link NeedsSandbox}.
 */
public final class SandboxCheck implements ExecutionCondition {
    public static final String REQUIRED_VARIABLE = "RUNBOOK_SANDBOX_REQUIRED";

    private static String unavailable;
    private static boolean checked;

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        String why = unavailable();
        if (why == null) return ConditionEvaluationResult.enabled("a sandboxed worker started");
        String message = "this test starts sandboxed worker processes, and none can start on this machine: " + why;
        if ("1".equals(System.getenv(REQUIRED_VARIABLE))) throw new AssertionError(message + " (" + REQUIRED_VARIABLE + "=1)");
        return ConditionEvaluationResult.disabled(message + " (skipped; " + REQUIRED_VARIABLE + "=1 fails instead)");
    }

    /** Null once a worker started; otherwise why none could. */
    private static synchronized String unavailable() {
        if (!checked) {
            try {
                WorkerCheck.requireWorkers(Isolation.DEFAULT, true, 1);
            } catch (IllegalArgumentException e) {
                unavailable = e.getMessage();
            }
            checked = true;
        }
        return unavailable;
    }
}
