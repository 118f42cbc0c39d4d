package dev.runbook.engine.check;

import java.util.List;

/** Why a plan is refused, with the rules involved. */
public record PlanProblem(Kind kind, String message, List<String> rules) {
    public enum Kind {
        /** Two actions disagree about the same field of the same object. */
        CONFLICT,
        /** More actions than {@code limits.maxActions}. */
        TOO_MANY_ACTIONS,
        /** An action in a namespace the policy does not grant, or outside the primary's while the bundle allows only that one. */
        OTHER_NAMESPACE,
        /** An action on a kind the policy does not grant, or that {@code limits.protectedKinds} lists. */
        PROTECTED_KIND,
        /** An action on a cluster-scoped object the policy does not allow. */
        CLUSTER_SCOPED,
        /** A RoleBinding that binds more than a Role of its namespace to ServiceAccounts of its namespace. */
        FOREIGN_BINDING,
        /** A template that does not render into an object. */
        TEMPLATE
    }

    public PlanProblem {
        rules = List.copyOf(rules);
    }

    public static PlanProblem template(String message, String rule) {
        return new PlanProblem(Kind.TEMPLATE, message, List.of(rule));
    }

    @Override
    public String toString() { return message + " (rules: " + String.join(", ", rules) + ")"; }
}
