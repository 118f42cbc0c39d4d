package dev.runbook.operator.isolation;

import dev.runbook.engine.check.PlanProblem;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.Firing;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.fact.Primary;
import dev.runbook.rules.fact.Resource;
import dev.runbook.rules.fact.Values;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What one cycle sends to a worker and gets back: facts in (the primary's and each secondary's object,
 * the time, the parameter overrides), a decision out (the plan's actions with the rules that asked for
 * them, the trace, and the template problems). The trace's facts cross as their descriptions: only
 * {@code runbook plan} and the logs read them, as text.
 *
 * <p>The plan's other problems do not cross: the operator checks the plan against its policy itself
 * ({@link IsolatedBundle}), whatever a worker found.
 */
final class DecisionWire {
    private DecisionWire() {}

    static byte[] observation(Observation observation) {
        Wire.Out out = new Wire.Out();
        out.writeValue(observation.primary().getObject());
        out.writeInt(observation.secondaries().size());
        for (Resource resource : observation.secondaries()) out.writeValue(resource.getObject());
        out.writeLong(observation.now().getEpochSecond()).writeInt(observation.now().getNano());
        out.writeValue(observation.parameterOverrides());
        return out.toBytes();
    }

    static Observation observation(byte[] message) {
        Wire.In in = new Wire.In(message);
        try {
            Primary primary = new Primary(Values.frozenInPlace(in.readMap()));
            int count = in.count(1);
            List<Resource> secondaries = new ArrayList<>(count);
            for (int i = 0; i < count; i++) secondaries.add(new Resource(Values.frozenInPlace(in.readMap())));
            Instant now = Instant.ofEpochSecond(in.readLong(), in.readInt());
            Map<String, Object> overrides = in.readMap();
            in.end();
            return new Observation(primary, secondaries, now, overrides);
        } catch (IllegalArgumentException | DateTimeException e) {
            throw new Wire.WireException("not an observation: " + e.getMessage());
        }
    }

    static byte[] decision(Decision decision) {
        Wire.Out out = new Wire.Out();
        out.writeInt(decision.firings().size());
        for (Firing firing : decision.firings()) {
            out.writeString(firing.rule()).writeStrings(firing.matched()).writeStrings(firing.derived());
            out.writeInt(firing.added().size());
            for (Action action : firing.added()) ActionWire.write(out, action);
            List<Integer> withdrawn = new ArrayList<>();
            for (int i = 0; i < firing.added().size(); i++) {
                if (firing.withdrawn().contains(firing.added().get(i))) withdrawn.add(i);
            }
            out.writeInt(withdrawn.size());
            withdrawn.forEach(out::writeInt);
        }
        out.writeInt(decision.actions().size());
        for (PlannedAction planned : decision.actions()) {
            ActionWire.write(out, planned.action());
            out.writeStrings(planned.rules());
        }
        List<PlanProblem> templates = decision.problems().stream().filter(p -> p.kind() == PlanProblem.Kind.TEMPLATE).toList();
        out.writeInt(templates.size());
        for (PlanProblem problem : templates) out.writeString(problem.message()).writeStrings(problem.rules());
        return out.toBytes();
    }

    /** A worker's decision, for {@code bundle} at {@code version}: its plan not yet checked against the policy. */
    static Decision decision(byte[] message, String bundle, String version, Instant now) {
        Wire.In in = new Wire.In(message);
        int firingCount = in.count(4);
        List<Firing> firings = new ArrayList<>(firingCount);
        for (int f = 0; f < firingCount; f++) {
            String rule = in.readText("a rule's name");
            List<String> matched = in.readStrings();
            List<String> derived = in.readStrings();
            int addedCount = in.count(4);
            List<Action> added = new ArrayList<>(addedCount);
            for (int i = 0; i < addedCount; i++) added.add(ActionWire.read(in));
            int withdrawnCount = in.count(4);
            List<Action> withdrawn = new ArrayList<>(withdrawnCount);
            for (int i = 0; i < withdrawnCount; i++) {
                int index = in.readInt();
                if (index < 0 || index >= added.size()) throw new Wire.WireException("a withdrawn action that was never added");
                withdrawn.add(added.get(index));
            }
            firings.add(new Firing(rule, matched, added, withdrawn, derived));
        }
        int actionCount = in.count(4);
        List<PlannedAction> actions = new ArrayList<>(actionCount);
        for (int i = 0; i < actionCount; i++) actions.add(new PlannedAction(ActionWire.read(in), in.readStrings()));
        int problemCount = in.count(4);
        List<PlanProblem> problems = new ArrayList<>(problemCount);
        for (int i = 0; i < problemCount; i++) problems.add(new PlanProblem(PlanProblem.Kind.TEMPLATE, in.readText("a problem"), in.readStrings()));
        in.end();
        return new Decision(bundle, version, now, firings, actions, problems);
    }
}
