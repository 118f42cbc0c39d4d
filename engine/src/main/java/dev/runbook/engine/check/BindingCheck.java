package dev.runbook.engine.check;

import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.Apply;
import dev.runbook.rules.action.MergePatch;
import dev.runbook.rules.fact.ObjectRef;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a bundle may grant when the policy lets it write RoleBindings (postgres-cluster binds its
 * instances' Role to their ServiceAccount): a Role of the binding's own namespace, to ServiceAccounts
 * of that namespace, and nobody else. RBAC's escalation check already holds a binding to the
 * operator's own rights; this keeps a bundle from handing those rights to every authenticated user, to
 * a person, or to a workload of another namespace (docs/security.md#rbac).
 */
final class BindingCheck {
    private static final String RBAC_GROUP = "rbac.authorization.k8s.io";

    private BindingCheck() {}

    static List<PlanProblem> check(List<PlannedAction> plan) {
        List<PlanProblem> problems = new ArrayList<>();
        for (PlannedAction planned : plan) {
            Action action = planned.action();
            ObjectRef target = action.getTarget();
            if (target == null || !"RoleBinding".equals(target.getKind()) || !target.getApiVersion().startsWith(RBAC_GROUP + "/")) continue;
            Map<String, Object> written = action instanceof Apply apply ? apply.getObject()
                    : action instanceof MergePatch patch ? patch.getPatch() : Map.of();
            String refusal = refusal(written, target.getNamespace());
            if (refusal != null) {
                problems.add(new PlanProblem(PlanProblem.Kind.FOREIGN_BINDING, action.identity() + " is refused: " + refusal
                        + "; a bundle binds a Role of its namespace to ServiceAccounts of that namespace only (docs/security.md#rbac)",
                        planned.rules()));
            }
        }
        return problems;
    }

    /** Null when every subject and the role the binding names are its namespace's own; else what is not. */
    static String refusal(Map<String, Object> binding, String namespace) {
        if (binding.get("roleRef") instanceof Map<?, ?> roleRef && !"Role".equals(roleRef.get("kind"))) {
            return "it binds the " + roleRef.get("kind") + " " + roleRef.get("name") + ", not a Role";
        }
        if (!binding.containsKey("subjects")) return null;
        if (!(binding.get("subjects") instanceof List<?> subjects)) return "its subjects are not a list";
        for (Object item : subjects) {
            if (!(item instanceof Map<?, ?> subject)) return "a subject is not a mapping: " + item;
            if (!"ServiceAccount".equals(subject.get("kind"))) {
                return "it grants to the " + subject.get("kind") + " " + subject.get("name") + ", not a ServiceAccount";
            }
            Object where = subject.get("namespace");
            if (where != null && !namespace.equals(String.valueOf(where))) {
                return "it grants to the ServiceAccount " + where + "/" + subject.get("name") + " of another namespace than " + namespace;
            }
        }
        return null;
    }
}
