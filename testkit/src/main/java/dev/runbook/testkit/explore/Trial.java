package dev.runbook.testkit.explore;

import dev.runbook.engine.bundle.ParameterValues;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.FiringLimitExceededException;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.decide.RuleFailedException;
import dev.runbook.testkit.scenario.CheckedApply;
import dev.runbook.testkit.invariant.InvariantViolation;
import dev.runbook.testkit.invariant.Invariants;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.testkit.scenario.SubsetMatch;
import dev.runbook.testkit.scenario.WorldChange;
import dev.runbook.testkit.scenario.WorldChanges;
import dev.runbook.engine.apply.Outcome;
import dev.runbook.testkit.simulation.Simulator;
import dev.runbook.engine.state.ObservationBuilder;
import dev.runbook.engine.state.ObservedObject;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Primary;
import dev.runbook.rules.fact.Resource;
import dev.runbook.rules.function.Durations;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One run on a fresh simulated cluster: steps of faults, each followed by a cycle whose plan is
 * applied and checked against the invariants, then — when nothing failed — convergence: healing,
 * and cycles until nothing changes (at most {@code converge.cycles}), after which the primary's
 * status must match {@code converge.expect}. The steps come from a function of the world, so the
 * same code draws a random run and replays a given one. Nothing but the simulated cluster is
 * carried from one cycle to the next, as an operator that restarts keeps nothing.
 */
final class Trial {
    /** How a run went: the steps as they ran, and the first failure (null when none). */
    record Result(List<StepRecord> steps, List<StepPlan> plans, Finding finding, boolean replayable) {}

    private final CompiledBundle bundle;
    private final Invariants invariants;
    private final ExploreSpec spec;
    /** The primary of the run being made (one Trial runs one run at a time). */
    private ObjectRef primaryRef;

    Trial(CompiledBundle bundle, Invariants invariants, ExploreSpec spec) {
        this.bundle = bundle;
        this.invariants = invariants;
        this.spec = spec;
    }

    /** Where a run's steps come from: drawn at random, or replayed from plans. */
    interface Source {
        /** How much time step {@code step} (from 1) lets pass, and what makes it pass; null to stop. */
        Start begin(int step, World world);

        /** The next fault of the step in the world as it is now, or empty when the step has no more. */
        Optional<Drawn> next(World world);
    }

    /** The start of a step: the time it lets pass and the faults that decided it (a clock jump, a restart). */
    record Start(Duration advance, List<String> descriptions) {}

    Result run(int steps, Source source) {
        Simulator simulator = new Simulator(spec.now());
        spec.state().forEach(o -> simulator.create(o.object()));
        Observation first = observe(simulator);
        primaryRef = first.primary().getRef();
        String namespace = primaryRef.getNamespace();
        List<StepRecord> records = new ArrayList<>();
        List<StepPlan> plans = new ArrayList<>();
        for (int i = 1; i <= steps; i++) {
            Start start = source.begin(i, world(simulator, namespace, i));
            if (start == null) break;
            simulator.advance(start.advance());
            List<WorldChange> made = new ArrayList<>(react(simulator, namespace, i, spec.reactions()));
            List<String> names = new ArrayList<>(start.descriptions());
            List<WorldChange> faults = new ArrayList<>();
            for (Optional<Drawn> drawn = source.next(world(simulator, namespace, i)); drawn.isPresent();
                 drawn = source.next(world(simulator, namespace, i))) {
                for (WorldChange change : drawn.get().changes()) {
                    try {
                        WorldChanges.apply(change, simulator, namespace, spec.file());
                    } catch (InvalidInputException notInThisWorld) {
                        return new Result(records, plans, null, false); // a shrunk run's fault names what is not there
                    }
                    faults.add(change);
                }
                if (!drawn.get().description().isEmpty()) names.add(drawn.get().description());
            }
            made.addAll(faults);
            String name = names.isEmpty() ? "time passes" : String.join("; ", names);
            plans.add(new StepPlan(name, start.advance(), faults));
            Cycled cycled = cycle(simulator, i);
            records.add(new StepRecord(name, start.advance(), made, null));
            if (cycled.finding != null) return new Result(records, plans, cycled.finding, true);
        }
        return converge(simulator, namespace, records, plans);
    }

    private Result converge(Simulator simulator, String namespace, List<StepRecord> records, List<StepPlan> plans) {
        ExploreSpec.Convergence converge = spec.converge();
        for (int c = 1; c <= converge.cycles(); c++) {
            int step = records.size() + 1;
            simulator.advance(converge.every());
            List<WorldChange> made = new ArrayList<>();
            made.addAll(make(simulator, namespace, Healing.of(world(simulator, namespace, step))));
            made.addAll(react(simulator, namespace, step, converge.heal()));
            made.addAll(react(simulator, namespace, step, spec.reactions()));
            Cycled cycled = cycle(simulator, step);
            // At rest and as expected: converged. At rest but not as expected may be a runbook waiting
            // for time to pass (a delay), so only the bound ends that.
            boolean last = c == converge.cycles()
                    || (cycled.finding == null && made.isEmpty() && cycled.quiet && SubsetMatch.matches(converge.status(), status(simulator)));
            records.add(new StepRecord(c == 1 ? "faults stop; the cluster converges" : "converging", converge.every(), made,
                    last ? converge.status() : null));
            if (cycled.finding != null) return new Result(records, plans, cycled.finding, true);
            if (last) {
                Map<String, Object> status = status(simulator);
                if (!SubsetMatch.matches(converge.status(), status)) {
                    return new Result(records, plans, new Finding(Finding.Kind.NOT_CONVERGED, "converged",
                            "after " + c + " cycles (" + Durations.format(converge.every().multipliedBy(c)) + ") the status is " + brief(status) + ", not " + converge.status(), step), true);
                }
                return new Result(records, plans, null, true);
            }
        }
        throw new IllegalStateException("unreachable: the last convergence cycle returns");
    }

    private record Cycled(Finding finding, boolean quiet) {}

    private Cycled cycle(Simulator simulator, int step) {
        simulator.settle();
        Decision decision;
        try {
            decision = DecisionCycle.run(bundle, observe(simulator));
        } catch (RuleFailedException | FiringLimitExceededException e) {
            return new Cycled(new Finding(Finding.Kind.RULE_FAILED, "rule failed", e.getMessage(), step), false);
        }
        if (!decision.isValid()) {
            return new Cycled(new Finding(Finding.Kind.PLAN_REFUSED, "plan refused", decision.problems().toString(), step), false);
        }
        CheckedApply.Result applied = CheckedApply.apply(invariants, bundle, simulator, decision, () -> observe(simulator));
        if (!applied.violations().isEmpty()) {
            InvariantViolation v = applied.violations().get(0);
            return new Cycled(new Finding(Finding.Kind.INVARIANT, v.invariant(), v.message(), step), false);
        }
        boolean quiet = true;
        for (int i = 0; i < applied.outcomes().size(); i++) {
            boolean isEvent = "event".equals(decision.applicableActions().get(i).action().getType());
            if (applied.outcomes().get(i) != Outcome.NONE && !isEvent) quiet = false;
        }
        return new Cycled(null, quiet);
    }

    /** Applies declared changes ({@code {pod}}: each pod in turn) and returns those that changed something. */
    private List<WorldChange> react(Simulator simulator, String namespace, int step, List<DeclaredFault> declared) {
        List<WorldChange> made = new ArrayList<>();
        for (DeclaredFault reaction : declared) {
            World world = world(simulator, namespace, step);
            List<String> pods = Placeholders.mentionsPod(reaction.changes())
                    ? reaction.candidates(world).stream().map(Resource::getName).toList() : java.util.Collections.singletonList(null);
            for (String pod : pods) {
                Optional<List<WorldChange>> filled = Placeholders.fill(reaction.changes(), world, pod);
                filled.ifPresent(changes -> made.addAll(make(simulator, namespace, changes)));
            }
        }
        return made;
    }

    /** Makes each change that can be made and changes something; the others are left out. */
    private List<WorldChange> make(Simulator simulator, String namespace, List<WorldChange> changes) {
        List<WorldChange> made = new ArrayList<>();
        for (WorldChange change : changes) {
            String ns = change.fields().get("namespace") == null ? namespace : String.valueOf(change.fields().get("namespace"));
            // A Node is cluster-scoped: its changes (nodeReady, nodeNotReady) name no namespace.
            var ref = "Node".equals(change.kind()) ? dev.runbook.rules.fact.ObjectRef.of("v1", "Node", null, change.name())
                    : Simulator.ref(change.kind(), ns, change.name());
            Optional<Map<String, Object>> before = simulator.get(ref);
            if (before.isEmpty() && !change.type().equals("create")) continue;
            try {
                WorldChanges.apply(change, simulator, namespace, spec.file());
            } catch (InvalidInputException cannot) {
                continue;
            }
            if (!Objects.equals(before, simulator.get(ref))) made.add(change);
        }
        return made;
    }

    private Observation observe(Simulator simulator) {
        List<ObservedObject> objects = simulator.cluster().list().stream()
                .map(o -> new ObservedObject(o, spec.file(), 0)).toList();
        return ObservationBuilder.build(bundle.spec(), objects, null, simulator.now(), spec.params());
    }

    /** The world a fault is drawn in, read from the cluster by kind: cheaper than a whole observation. */
    private World world(Simulator simulator, String namespace, int step) {
        Primary primary = new Primary(simulator.get(primaryRef).orElseThrow());
        List<Resource> pods = simulator.cluster().list("Pod").stream().map(Resource::new)
                .filter(r -> namespace.equals(r.getNamespace())).toList();
        List<Resource> jobs = simulator.cluster().list("Job").stream().map(Resource::new)
                .filter(r -> namespace.equals(r.getNamespace())).toList();
        List<Resource> nodes = simulator.cluster().list("Node").stream().map(Resource::new).toList();
        Duration delay = Duration.ZERO;
        try {
            Object parameter = ParameterValues.resolve(bundle.spec(), spec.params()).get("failoverDelay");
            delay = primary.duration("spec.failoverDelay", parameter == null ? "0s" : String.valueOf(parameter));
        } catch (IllegalArgumentException notADuration) {
            // a garbled spec: jump by the other amounts only
        }
        return new World(primary, pods, jobs, nodes, simulator.now(), step, delay);
    }

    private Map<String, Object> status(Simulator simulator) {
        Map<String, Object> primary = simulator.get(primaryRef).orElse(Map.of());
        @SuppressWarnings("unchecked")
        Map<String, Object> status = primary.get("status") instanceof Map<?, ?> s ? (Map<String, Object>) s : Map.of();
        return status;
    }

    private static String brief(Map<String, Object> status) {
        Map<String, Object> shown = new java.util.LinkedHashMap<>(status);
        shown.remove("conditions");
        return shown.toString();
    }
}
