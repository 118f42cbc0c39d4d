package dev.runbook.engine.check;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.Limits;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.FieldWrite;
import dev.runbook.rules.fact.Primary;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks a plan before anything is applied: conflicts between actions, the per-cycle action limit,
 * the namespace boundary and protected kinds. Any problem refuses the whole plan, because applying
 * half of a plan whose rules disagree leaves the cluster in a state no rule asked for.
 */
public final class PlanChecker {
    private PlanChecker() {}

    public static List<PlanProblem> check(List<PlannedAction> plan, BundleSpec spec, Primary primary) {
        List<PlanProblem> problems = new ArrayList<>(conflicts(plan));
        Limits limits = spec.limits();
        if (plan.size() > limits.maxActions()) {
            Set<String> rules = new LinkedHashSet<>();
            plan.forEach(p -> rules.addAll(p.rules()));
            problems.add(new PlanProblem(PlanProblem.Kind.TOO_MANY_ACTIONS, "the plan has " + plan.size()
                    + " actions, more than the bundle's limit of " + limits.maxActions()
                    + " (limits.maxActions in bundle.yaml)", new ArrayList<>(rules)));
        }
        for (PlannedAction planned : plan) {
            Action action = planned.action();
            if (action.getTarget() == null) continue;
            String namespace = action.getTarget().getNamespace();
            if (!limits.anyNamespace() && !namespace.isEmpty() && !namespace.equals(primary.getNamespace())) {
                problems.add(new PlanProblem(PlanProblem.Kind.OTHER_NAMESPACE, action.identity()
                        + " is outside the primary's namespace " + primary.getNamespace()
                        + " (set limits.namespaces: any in bundle.yaml to allow it)", planned.rules()));
            }
            if (limits.protectedKinds().contains(action.getTarget().getKind())) {
                problems.add(new PlanProblem(PlanProblem.Kind.PROTECTED_KIND, action.identity()
                        + " touches a protected kind (limits.protectedKinds in bundle.yaml)", planned.rules()));
            }
        }
        return problems;
    }

    /** Each pair of actions that disagree, reported once with both rules. */
    static List<PlanProblem> conflicts(List<PlannedAction> plan) {
        List<PlanProblem> problems = new ArrayList<>();
        // Identities and writes are computed once per action, not once per pair.
        List<List<FieldWrite>> writes = plan.stream().map(p -> p.action().writes()).toList();
        List<String> identities = plan.stream().map(p -> p.action().identity()).toList();
        for (int i = 0; i < plan.size(); i++) {
            for (int j = i + 1; j < plan.size(); j++) {
                String conflict = conflict(plan.get(i).action(), identities.get(i), writes.get(i),
                        plan.get(j).action(), identities.get(j), writes.get(j));
                if (conflict != null) {
                    List<String> rules = new ArrayList<>(plan.get(i).rules());
                    plan.get(j).rules().stream().filter(r -> !rules.contains(r)).forEach(rules::add);
                    problems.add(new PlanProblem(PlanProblem.Kind.CONFLICT, conflict
                            + ": rule " + quoted(plan.get(i).rules()) + " wants " + intent(plan.get(i).action())
                            + ", rule " + quoted(plan.get(j).rules()) + " wants " + intent(plan.get(j).action()),
                            rules));
                }
            }
        }
        return problems;
    }

    private static String conflict(Action a, String aIdentity, List<FieldWrite> aWrites,
                                   Action b, String bIdentity, List<FieldWrite> bWrites) {
        if (aIdentity.equals(bIdentity) && !a.getType().equals("requeue")) {
            return "conflict on " + aIdentity;
        }
        for (FieldWrite x : aWrites) {
            for (FieldWrite y : bWrites) {
                if (x.conflictsWith(y)) {
                    String path = x.path().size() <= y.path().size() ? x.describePath() : y.describePath();
                    return "conflict on " + x.target() + " " + path;
                }
            }
        }
        return null;
    }

    /** An action's form without its type and target, in YAML flow style: {path: phase, value: Healthy}. */
    static String intent(Action action) {
        Map<String, Object> form = new LinkedHashMap<>(action.toMap());
        form.remove("target");
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.FLOW);
        options.setWidth(Integer.MAX_VALUE);
        return new Yaml(options).dump(form).trim();
    }

    private static String quoted(List<String> rules) {
        return "'" + String.join("', '", rules) + "'";
    }
}
