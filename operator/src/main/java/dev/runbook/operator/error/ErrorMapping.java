package dev.runbook.operator.error;

import dev.runbook.engine.check.PlanProblem;
import dev.runbook.engine.containment.RuleContainmentException;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.FiringLimitExceededException;
import dev.runbook.engine.decide.RuleFailedException;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The one place where what went wrong becomes a {@link Failure}: temporary (retry with backoff) or
 * permanent (stop, report in the condition and a Warning event). Everything the cycle catches goes
 * through {@link #classify}.
 *
 * <ul>
 *   <li>temporary: the API server unreachable or answering 429, 500, 502, 503 or 504; a 409 conflict
 *       that the actor's own retries on fresh state did not resolve;</li>
 *   <li>permanent: a refused plan, a rule that threw, the firing limit, an action the API server
 *       refuses (400, 403, 404, 422, ...), an invalid {@code runbook.dev/...} annotation, and any
 *       other error (reported as {@code InternalError} rather than retried in a tight loop).</li>
 * </ul>
 */
public final class ErrorMapping {
    private ErrorMapping() {}

    static final Set<Integer> TEMPORARY_HTTP_CODES = Set.of(408, 429, 500, 502, 503, 504);
    public static final int CONFLICT = 409;

    /** A refused plan: every problem, with the rules involved. */
    public static Failure planRefused(Decision decision) {
        Set<String> rules = new LinkedHashSet<>();
        List<String> messages = new ArrayList<>();
        for (PlanProblem problem : decision.problems()) {
            rules.addAll(problem.rules());
            messages.add(problem.kind() + ": " + problem.message());
        }
        return new Failure(Failure.Kind.PERMANENT, Reasons.PLAN_REFUSED,
                "the plan was refused and nothing was applied: " + String.join("; ", messages), new ArrayList<>(rules));
    }

    public static Failure classify(Throwable error) {
        if (error instanceof TemporaryException temporary) return temporary.failure();
        if (error instanceof RuleContainmentException stopped) {
            return new Failure(Failure.Kind.PERMANENT, Reasons.RULE_STOPPED, stopped.getMessage(), List.of(stopped.rule()));
        }
        if (error instanceof RuleFailedException failed) {
            return new Failure(Failure.Kind.PERMANENT, Reasons.RULE_FAILED, failed.getMessage(), List.of(failed.rule()));
        }
        if (error instanceof FiringLimitExceededException limit) {
            List<String> busiest = limit.topRules().entrySet().stream()
                    .sorted(java.util.Map.Entry.<String, Integer>comparingByValue().reversed()
                            .thenComparing(java.util.Map.Entry.comparingByKey()))
                    .map(java.util.Map.Entry::getKey).toList();
            return new Failure(Failure.Kind.PERMANENT, Reasons.FIRING_LIMIT_EXCEEDED, limit.getMessage(), busiest);
        }
        if (error instanceof ActionFailedException action) {
            Failure cause = classify(action.getCause());
            String reason = cause.kind() == Failure.Kind.PERMANENT ? Reasons.ACTION_FAILED : cause.reason();
            return new Failure(cause.kind(), reason, action.getMessage(), action.rules());
        }
        if (error instanceof InvalidAnnotationException invalid) {
            return new Failure(Failure.Kind.PERMANENT, Reasons.INVALID_ANNOTATION, invalid.getMessage(), List.of());
        }
        if (causedByIo(error)) {
            return new Failure(Failure.Kind.TEMPORARY, Reasons.API_UNAVAILABLE, message(error), List.of());
        }
        if (error instanceof KubernetesClientException api) {
            return classifyApi(api);
        }
        return new Failure(Failure.Kind.PERMANENT, Reasons.INTERNAL_ERROR, message(error), List.of());
    }

    private static Failure classifyApi(KubernetesClientException api) {
        int code = api.getCode();
        if (code == CONFLICT) {
            return new Failure(Failure.Kind.TEMPORARY, Reasons.CONFLICT, message(api), List.of());
        }
        if (code <= 0 || TEMPORARY_HTTP_CODES.contains(code)) { // no HTTP status: no answer
            return new Failure(Failure.Kind.TEMPORARY, Reasons.API_UNAVAILABLE, message(api), List.of());
        }
        return new Failure(Failure.Kind.PERMANENT, Reasons.ACTION_FAILED, message(api), List.of());
    }

    /** No answer at all: the connection was refused, reset or timed out. */
    private static boolean causedByIo(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof IOException) return true;
        }
        return false;
    }

    private static String message(Throwable error) {
        return ActionFailedException.rootMessage(error);
    }
}
