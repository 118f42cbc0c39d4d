package dev.runbook.engine.check;

import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.engine.policy.ClusterScopedKinds;
import dev.runbook.engine.policy.EffectiveLimits;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.Requeue;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Primary;

import java.util.ArrayList;
import java.util.List;

/**
 * The part of the plan check that the operator's policy owns: each action's namespace, kind and
 * scope against the {@link EffectiveLimits} (the administrator's policy narrowed by the bundle).
 */
final class PolicyCheck {
    private PolicyCheck() {}

    static List<PlanProblem> check(List<PlannedAction> plan, EffectiveLimits limits, Primary primary) {
        List<PlanProblem> problems = new ArrayList<>();
        for (PlannedAction planned : plan) {
            Action action = planned.action();
            ObjectRef target = action.getTarget();
            if (target == null || action instanceof Requeue) continue;
            String kind = target.getKind();
            if (ClusterScopedKinds.isClusterScoped(kind, target.getNamespace())) {
                String refusal = limits.clusterScopedRefusal(target.getApiVersion(), kind);
                if (refusal != null) {
                    problems.add(new PlanProblem(PlanProblem.Kind.CLUSTER_SCOPED,
                            action.identity() + " is refused: " + refusal, planned.rules()));
                }
                continue;
            }
            String namespaceRefusal = limits.namespaceRefusal(target.getNamespace(), primary.getNamespace());
            if (namespaceRefusal != null) {
                problems.add(new PlanProblem(PlanProblem.Kind.OTHER_NAMESPACE,
                        action.identity() + " is refused: " + namespaceRefusal, planned.rules()));
            }
            String kindRefusal = limits.kindRefusal(target.getApiVersion(), kind);
            if (kindRefusal != null) {
                problems.add(new PlanProblem(PlanProblem.Kind.PROTECTED_KIND,
                        action.identity() + " is refused: " + kindRefusal, planned.rules()));
            }
        }
        problems.addAll(BindingCheck.check(plan));
        return problems;
    }
}
