package dev.runbook.benchmarks;

import dev.runbook.operator.kube.GenericWatchEvents;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What reading one watch event of a generically watched kind costs, in the thread's CPU time: blocks
 * alternating fabric8's way (A: the event's object read into its model class, then converted into a
 * generic resource, as fabric8's watch manager does for an informer of generic resources) and the
 * operator's ({@link GenericWatchEvents}, B: read generically at once), A B A B ... in one JVM, after
 * warm-up blocks of both. Prints each block's microseconds per event and the medians' ratio B / A.
 *
 * <p>Arguments: {@code [events per block, default 20000] [blocks of each, default 5] [object JSON file,
 * default operator/src/test/resources/cached/pod.json: a Pod as a real control plane served it]}.
 */
public final class WatchEventCpuTime {
    private WatchEventCpuTime() {}

    public static void main(String[] args) throws IOException {
        int events = args.length > 0 ? Integer.parseInt(args[0]) : 20000;
        int blocks = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Path file = Path.of(args.length > 2 ? args[2] : "operator/src/test/resources/cached/pod.json");
        String event = "{\"type\":\"MODIFIED\",\"object\":" + Files.readString(file) + "}";
        KubernetesSerialization fabric8 = new KubernetesSerialization();
        GenericWatchEvents operator = new GenericWatchEvents();
        Runnable typedThenConverted = () -> {
            WatchEvent read = fabric8.unmarshal(event, WatchEvent.class);
            HasMetadata object = (HasMetadata) read.getObject();
            if (!(object instanceof GenericKubernetesResource)) fabric8.convertValue(object, GenericKubernetesResource.class);
        };
        Runnable generic = () -> operator.unmarshal(event, WatchEvent.class);
        for (int i = 0; i < 3; i++) {
            block(typedThenConverted, events);
            block(generic, events);
        }
        double[] a = new double[blocks];
        double[] b = new double[blocks];
        for (int i = 0; i < blocks; i++) {
            a[i] = block(typedThenConverted, events);
            b[i] = block(generic, events);
            System.out.printf("A%d %8.1f µs/event   B%d %8.1f µs/event%n", i + 1, a[i], i + 1, b[i]);
        }
        Arrays.sort(a);
        Arrays.sort(b);
        System.out.printf("%s: CPU per watch event, median of %d blocks of %d: typed then converted %.1f µs, generic %.1f µs, "
                + "generic / typed %.2f%n", file.getFileName(), blocks, events, a[blocks / 2], b[blocks / 2], b[blocks / 2] / a[blocks / 2]);
    }

    private static double block(Runnable read, int events) {
        var threads = ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < events; i++) read.run();
        return (threads.getCurrentThreadCpuTime() - cpu0) / 1e3 / events;
    }
}
