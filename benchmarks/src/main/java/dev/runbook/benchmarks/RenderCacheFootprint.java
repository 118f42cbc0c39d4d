package dev.runbook.benchmarks;

import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.Observation;
import dev.runbook.rules.fact.Primary;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a bundle holds per primary once every primary has had a cycle: the decision cycle of one shipped
 * sample run for N primaries that differ in name and uid (as N clusters do), then the live heap after
 * full collections, against the same bundle after one primary's cycle. What the engine keeps per
 * primary between cycles is the render cache's entries (docs/performance.md#the-operators-memory), so
 * the difference divided by N is their size. Run with the serial collector, whose used heap after
 * {@code System.gc()} is the live set.
 *
 * <p>Arguments: {@code [N, default 1000] [sample, default postgres-cluster/healthy] [--classes]}; with
 * {@code --classes} it also prints the classes whose live instances grew the most per primary (the JVM's
 * class histogram after a full collection, before and after).
 */
public final class RenderCacheFootprint {
    private RenderCacheFootprint() {}

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        String sample = args.length > 1 && !args[1].startsWith("--") ? args[1] : "postgres-cluster/healthy";
        boolean classes = java.util.Arrays.asList(args).contains("--classes");
        CompiledBundle bundle = ShippedSamples.compile(sample);
        Observation observation = ShippedSamples.observation(bundle, sample);
        DecisionCycle.run(bundle, withIdentity(observation, -1));
        long before = liveHeap();
        Map<String, Long> classesBefore = classes ? histogram() : Map.of();
        for (int i = 0; i < n; i++) DecisionCycle.run(bundle, withIdentity(observation, i));
        long after = liveHeap();
        Map<String, Long> classesAfter = classes ? histogram() : Map.of();
        System.out.printf("render cache footprint: %s, N=%d, live heap %.1f MB before, %.1f MB after: %.1f KB per primary%n",
                sample, n, before / 1e6, after / 1e6, (after - before) / 1e3 / n);
        classesAfter.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - classesBefore.getOrDefault(e.getKey(), 0L)))
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(15)
                .forEach(e -> System.out.printf("  %8.0f bytes per primary  %s%n", (double) e.getValue() / n, e.getKey()));
        System.out.println(bundle.spec().name()); // keeps the bundle, and its cache, reachable until after the reading
    }

    /** Bytes of live instances by class, from the JVM's class histogram (it collects first). */
    private static Map<String, Long> histogram() {
        try {
            String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                    new Object[] {null}, new String[] {String[].class.getName()});
            Map<String, Long> bytes = new java.util.HashMap<>();
            for (String line : text.split("\n")) {
                String[] cells = line.trim().split("\\s+");
                if (cells.length >= 4 && cells[0].endsWith(":")) bytes.put(cells[3], Long.parseLong(cells[2]));
            }
            return bytes;
        } catch (javax.management.JMException e) {
            throw new IllegalStateException("no class histogram: " + e.getMessage(), e);
        }
    }

    /** The observation with its primary named {@code <name>-i} and a uid of its own. */
    private static Observation withIdentity(Observation observation, int i) {
        Map<String, Object> object = new LinkedHashMap<>(observation.primary().getObject());
        @SuppressWarnings("unchecked")
        Map<String, Object> metadata = new LinkedHashMap<>((Map<String, Object>) object.get("metadata"));
        metadata.put("name", metadata.get("name") + "-" + i);
        metadata.put("uid", "00000000-0000-0000-0000-" + String.format("%012d", i + 1));
        object.put("metadata", metadata);
        return new Observation(new Primary(object), observation.secondaries(), observation.now(), observation.parameterOverrides());
    }

    private static long liveHeap() {
        for (int i = 0; i < 4; i++) System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
