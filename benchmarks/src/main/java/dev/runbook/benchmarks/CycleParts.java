package dev.runbook.benchmarks;

import dev.runbook.engine.bundle.ParameterValues;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.Observation;
import dev.runbook.rules.fact.Clock;
import dev.runbook.rules.fact.Params;
import dev.runbook.rules.fact.Resource;
import org.kie.api.event.rule.BeforeMatchFiredEvent;
import org.kie.api.event.rule.DefaultAgendaEventListener;
import org.kie.api.runtime.KieSession;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * How much of a decision cycle is Drools' alone: the whole cycle against the rules by themselves on
 * the same sample (a session from the bundle's pool, the same facts inserted in the cycle's order,
 * fired to rest, disposed: no trace, no templates, no plan, no check), and the same with a listener
 * that reads each match's facts as the trace does. Thread CPU time, the three in alternating blocks in
 * one warm JVM, so that load from elsewhere falls on all of them; prints each one's median of block
 * medians and its share of the whole cycle. The rules' part is the floor that no change outside
 * Drools can take a cycle below.
 *
 * <p>Arguments: {@code [sample, default postgres-cluster/primary-failed] [blocks, default 12]}.
 * Samples without a pause or a deletion in progress only (those fire more than once, or not at all).
 */
public final class CycleParts {
    private static final int BLOCK = 1000;

    private CycleParts() {}

    public static void main(String[] args) {
        String sample = args.length > 0 ? args[0] : "postgres-cluster/primary-failed";
        int blocks = args.length > 1 ? Integer.parseInt(args[1]) : 12;
        CompiledBundle bundle = ShippedSamples.compile(sample);
        Observation observation = ShippedSamples.observation(bundle, sample);
        Params params = ParameterValues.resolve(bundle.spec(), observation.parameterOverrides());
        String[] names = {"the whole cycle (DecisionCycle.run)", "the rules alone, with a listener reading each match",
                "the rules alone"};
        Runnable[] parts = {
            () -> DecisionCycle.run(bundle, observation),
            () -> rulesAlone(bundle, observation, params, true),
            () -> rulesAlone(bundle, observation, params, false),
        };
        WarmUp.Result warmUp = WarmUp.run(20 * BLOCK, 100 * BLOCK, () -> { for (Runnable part : parts) part.run(); });
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        List<List<Long>> medians = new ArrayList<>();
        for (int p = 0; p < parts.length; p++) medians.add(new ArrayList<>());
        for (int b = 0; b < blocks; b++) {
            for (int k = 0; k < parts.length; k++) {
                int p = b % 2 == 0 ? k : parts.length - 1 - k; // A B C C B A ...: neither side always goes first
                long[] cpu = new long[BLOCK];
                for (int i = 0; i < BLOCK; i++) {
                    long start = threads.getCurrentThreadCpuTime();
                    parts[p].run();
                    cpu[i] = threads.getCurrentThreadCpuTime() - start;
                }
                Arrays.sort(cpu);
                medians.get(p).add(cpu[BLOCK / 2]);
            }
        }
        System.out.printf("%s, %d blocks of %d cycles each (warm-up %s), load average %.2f at the end%n", sample, blocks,
                BLOCK, warmUp, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        double whole = median(medians.get(0));
        for (int p = 0; p < parts.length; p++) {
            double m = median(medians.get(p));
            System.out.printf("  %-55s CPU median %7.1f µs  %5.1f%% of the cycle%n", names[p], m / 1e3, 100 * m / whole);
        }
    }

    /** The session part of a cycle, as {@code DecisionCycle} does it, without anything recorded or planned. */
    private static void rulesAlone(CompiledBundle bundle, Observation observation, Params params, boolean listening) {
        KieSession session = bundle.sessions().newKieSession();
        DefaultAgendaEventListener listener = new DefaultAgendaEventListener() {
            @Override
            public void beforeMatchFired(BeforeMatchFiredEvent event) { event.getMatch().getObjects(); }
        };
        try {
            if (listening) session.addEventListener(listener);
            session.insert(new Clock(observation.now()));
            session.insert(params);
            session.insert(observation.primary());
            observation.secondaries().stream().sorted(Comparator.comparing(Resource::getRef)).forEach(session::insert);
            session.fireAllRules(bundle.spec().limits().maxFirings() + 1);
        } finally {
            if (listening) session.removeEventListener(listener);
            session.dispose();
        }
    }

    private static double median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}
