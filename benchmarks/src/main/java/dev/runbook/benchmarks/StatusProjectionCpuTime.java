package dev.runbook.benchmarks;

import dev.runbook.engine.apply.ActionEffect;
import dev.runbook.engine.apply.Change;
import dev.runbook.engine.apply.Json;
import dev.runbook.engine.apply.Outcome;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.SetCondition;
import dev.runbook.rules.action.SetStatus;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Values;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one operator cycle spends projecting its status actions on its primary with the engine's
 * {@link ActionEffect}, timed by the thread's CPU time, with the bytes allocated: the plan's
 * {@code setStatus} and {@code setCondition} actions on the primary, projected one after the other in
 * the act phase ({@code PrimaryStatus.add}), again in the record phase ({@code PrimaryStatus.applied}),
 * and then the record phase's own four ({@code observedGeneration}, {@code bundleVersion},
 * {@code lastCycle}, the {@code RunbookApplied} condition; {@code Recorder.desiredStatus}). The
 * operator classes are not on the benchmarks' class path, so the sequence is rebuilt here from the
 * sample's decision; {@code lastCycle} holds one entry per planned action, as the operator's does.
 * Each sample is timed twice: from its primary as the sample has it, and from the primary as such a
 * cycle left it (frozen, as the operator's cache holds it), the status already written.
 *
 * <p>Arguments: {@code [projections per sample, default 20000] [sample ...]} (default: every sample).
 */
public final class StatusProjectionCpuTime {
    private StatusProjectionCpuTime() {}

    public static void main(String[] args) {
        int cycles = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        List<String> samples = args.length > 1 ? Arrays.asList(args).subList(1, args.length) : ShippedSamples.all();
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        System.out.printf("%-52s %8s %8s %9s %9s %10s%n", "sample", "actions", "primary", "cpu p50", "cpu p99", "bytes/op");
        for (String sample : samples) {
            CompiledBundle bundle = ShippedSamples.compile(sample);
            Observation observation = ShippedSamples.observation(bundle, sample);
            Map<String, Object> primary = observation.primary().getObject();
            ObjectRef ref = observation.primary().getRef();
            List<PlannedAction> plan = DecisionCycle.run(bundle, observation).actions();
            List<Action> statusActions = plan.stream().map(PlannedAction::action)
                    .filter(a -> (a instanceof SetStatus || a instanceof SetCondition) && ref.equals(a.getTarget())).toList();
            List<Action> record = recordActions(ref, plan);
            // As the sample has it, and as a cycle like this one left it (its status written).
            Map<String, Object> recorded = Values.frozenMap(project(primary, statusActions, record, observation));
            for (Map<String, Object> start : List.of(primary, recorded)) {
                Runnable cycle = () -> project(start, statusActions, record, observation);
                WarmUp.run(cycles, cycles * 10, cycle);
                long[] cpu = new long[cycles];
                long allocated = threads.getThreadAllocatedBytes(thread);
                for (int i = 0; i < cycles; i++) {
                    long c0 = threads.getCurrentThreadCpuTime();
                    cycle.run();
                    cpu[i] = threads.getCurrentThreadCpuTime() - c0;
                }
                allocated = threads.getThreadAllocatedBytes(thread) - allocated;
                Arrays.sort(cpu);
                System.out.printf("%-52s %8d %6d B %6.1f µs %6.1f µs %10d%n", sample, statusActions.size(),
                        Json.canonical(start).length(), cpu[cycles / 2] / 1e3, cpu[cycles * 99 / 100] / 1e3, allocated / cycles);
            }
        }
    }

    /** The act phase's projection, then the record phase's: the plan's actions again and its own four. */
    private static Map<String, Object> project(Map<String, Object> primary, List<Action> statusActions, List<Action> record,
                                Observation observation) {
        Map<String, Object> projected = primary;
        for (Action action : statusActions) projected = after(projected, action, observation);
        Map<String, Object> recorded = primary;
        for (Action action : statusActions) recorded = after(recorded, action, observation);
        for (Action action : record) recorded = ActionEffect.on(recorded, action, observation.now()).object();
        if (projected == null || recorded == null) throw new IllegalStateException("the primary went away");
        return recorded;
    }

    private static Map<String, Object> after(Map<String, Object> object, Action action, Observation observation) {
        Change change = ActionEffect.on(object, action, observation.now());
        return change.outcome() == Outcome.NONE ? object : change.object();
    }

    private static List<Action> recordActions(ObjectRef ref, List<PlannedAction> plan) {
        List<Object> entries = new ArrayList<>();
        for (PlannedAction planned : plan) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("action", planned.action().identity());
            entry.put("rules", planned.rules());
            entry.put("outcome", "UPDATED");
            entries.add(entry);
        }
        Map<String, Object> lastCycle = new LinkedHashMap<>();
        lastCycle.put("time", ShippedSamples.NOW.toString());
        lastCycle.put("outcome", "Applied");
        lastCycle.put("actions", entries);
        return List.of(new SetStatus(ref, "observedGeneration", 1L), new SetStatus(ref, "bundleVersion", "0123456789"),
                new SetStatus(ref, "lastCycle", lastCycle),
                new SetCondition(ref, "RunbookApplied", "True", "Applied", entries.size() + " actions applied"));
    }
}
