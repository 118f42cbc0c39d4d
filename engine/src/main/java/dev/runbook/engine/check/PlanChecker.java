package dev.runbook.engine.check;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.Limits;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.engine.policy.EffectiveLimits;
import dev.runbook.engine.policy.Policy;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.FieldWrite;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Primary;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks a plan before anything is applied: conflicts between actions, the per-cycle action limit,
 * and the namespaces, kinds and scope the operator's policy and the bundle allow ({@link PolicyCheck}). Any problem refuses the whole plan, because applying
 * half of a plan whose rules disagree leaves the cluster in a state no rule asked for.
 */
public final class PlanChecker {
    private PlanChecker() {}

    /** Checks the plan under {@link Policy#DEFAULT}, the policy when the administrator gave none. */
    public static List<PlanProblem> check(List<PlannedAction> plan, BundleSpec spec, Primary primary) {
        return check(plan, spec, primary, Policy.DEFAULT);
    }

    /** Checks the plan; namespaces, kinds and cluster-scoped objects against the policy narrowed by the bundle. */
    public static List<PlanProblem> check(List<PlannedAction> plan, BundleSpec spec, Primary primary, Policy policy) {
        List<PlanProblem> problems = new ArrayList<>(conflicts(plan));
        Limits limits = spec.limits();
        if (plan.size() > limits.maxActions()) {
            Set<String> rules = new LinkedHashSet<>();
            plan.forEach(p -> rules.addAll(p.rules()));
            problems.add(new PlanProblem(PlanProblem.Kind.TOO_MANY_ACTIONS, "the plan has " + plan.size()
                    + " actions, more than the bundle's limit of " + limits.maxActions()
                    + " (limits.maxActions in bundle.yaml)", new ArrayList<>(rules)));
        }
        problems.addAll(PolicyCheck.check(plan, EffectiveLimits.of(spec, policy), primary));
        return problems;
    }

    /** Each pair of actions that disagree, reported once with both rules. */
    static List<PlanProblem> conflicts(List<PlannedAction> plan) {
        List<PlanProblem> problems = new ArrayList<>();
        // Identities and writes are computed once per action, not once per pair.
        int size = plan.size();
        List<List<FieldWrite>> writes = new ArrayList<>(size);
        List<String> identities = new ArrayList<>(size);
        List<Set<ObjectRef>> written = new ArrayList<>(size);
        for (PlannedAction p : plan) {
            List<FieldWrite> w = p.action().fieldWrites();
            writes.add(w);
            identities.add(p.action().identity());
            written.add(targets(w));
        }
        for (int i = 0; i < size; i++) {
            for (int j = i + 1; j < size; j++) {
                // Writes to different objects never conflict: skip the field-by-field comparison.
                if (!identities.get(i).equals(identities.get(j)) && disjoint(written.get(i), written.get(j))) continue;
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

    /** The objects the writes touch: most actions write one object, and its set is a singleton. */
    private static Set<ObjectRef> targets(List<FieldWrite> writes) {
        if (writes.isEmpty()) return Set.of();
        ObjectRef first = writes.get(0).target();
        for (FieldWrite write : writes) {
            if (!write.target().equals(first)) {
                Set<ObjectRef> targets = new HashSet<>();
                for (FieldWrite x : writes) targets.add(x.target());
                return targets;
            }
        }
        return Set.of(first);
    }

    private static boolean disjoint(Set<ObjectRef> a, Set<ObjectRef> b) {
        if (a.isEmpty() || b.isEmpty()) return true;
        if (a.size() == 1 && b.size() == 1) return !a.iterator().next().equals(b.iterator().next());
        return Collections.disjoint(a, b);
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
