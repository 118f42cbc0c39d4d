package dev.runbook.benchmarks;

import org.netbeans.lib.profiler.heap.Heap;
import org.netbeans.lib.profiler.heap.HeapFactory;
import org.netbeans.lib.profiler.heap.Instance;
import org.netbeans.lib.profiler.heap.JavaClass;
import org.netbeans.lib.profiler.heap.ObjectArrayInstance;
import org.netbeans.lib.profiler.heap.PrimitiveArrayInstance;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where an operator's live heap goes, by holder: a heap dump of live objects ({@code jcmd PID
 * GC.heap_dump FILE}, which collects first; {@code benchmarks/scale/soak --heap-dumps} writes one at the
 * start and one at the end) read with the NetBeans profiler's heap library, each holder's retained size
 * (what a collection would free were the holder gone: its dominator subtree), and per cluster when the
 * number of clusters is given.
 *
 * <p>Holders: each informer cache (JOSDK's item store of one watched kind; its objects by class, so a
 * kind cached whole rather than compact shows), the template render cache's two levels, the rest of the
 * compiled bundle (Drools' rule base, the bundle's classes), the Kubernetes client (Jackson's serializer
 * caches), the Drools session pool, Micrometer, Netty's pooled buffers, JOSDK's temporary caches of the
 * operator's own writes; what no holder dominates is "the rest". Retained sizes do not overlap.
 *
 * <p>Arguments: {@code HPROF [CLUSTERS]}.
 */
public final class HeapHolders {
    private static final String STORE = "io.javaoperatorsdk.operator.processing.event.source.informer.TransformingItemStore";

    private HeapHolders() {}

    public static void main(String[] args) throws IOException {
        Heap heap = HeapFactory.createHeap(new File(args[0]));
        int clusters = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        long total = heap.getSummary().getTotalLiveBytes();
        Map<String, Long> holders = new LinkedHashMap<>();

        for (Instance store : instances(heap, STORE)) {
            Instance map = (Instance) store.getValueOfField("store");
            Map<String, int[]> kinds = new TreeMap<>();
            Map<String, Integer> classes = new TreeMap<>();
            for (Instance value : concurrentHashMapValues(map)) {
                kinds.computeIfAbsent(string((Instance) value.getValueOfField("kind")), k -> new int[1])[0]++;
                classes.merge(value.getJavaClass().getName().replaceAll(".*\\.", ""), 1, Integer::sum);
            }
            if (kinds.isEmpty()) continue;
            holders.merge("informer cache " + kinds.keySet() + " " + classes, store.getRetainedSize(), Long::sum);
        }
        long renderCache = 0;
        for (Instance cache : instances(heap, "dev.runbook.engine.template.RenderCache")) {
            renderCache += cache.getRetainedSize();
            holders.merge("render cache, by input (finished actions, the primaries they were rendered from)",
                    retained((Instance) cache.getValueOfField("byInput")), Long::sum);
            holders.merge("render cache, by rendered text (the texts)", retained((Instance) cache.getValueOfField("byText")), Long::sum);
        }
        long levels = holders.entrySet().stream().filter(e -> e.getKey().startsWith("render cache")).mapToLong(Map.Entry::getValue).sum();
        holders.put("render cache, the parsed objects both levels share", renderCache - levels);
        holders.put("compiled bundle but its render cache (Drools' rule base, the bundle's classes)",
                sum(heap, "dev.runbook.engine.compile.CompiledBundle") - renderCache);
        holders.put("Kubernetes client (Jackson's serializer caches)", sum(heap, "io.fabric8.kubernetes.client.impl.KubernetesClientImpl"));
        holders.put("Drools session pool", sum(heap, "org.drools.kiesession.session.KieSessionsPoolImpl"));
        holders.put("Micrometer", sum(heap, "io.micrometer.prometheusmetrics.PrometheusMeterRegistry"));
        holders.put("Netty's pooled buffers", sum(heap, "io.netty.buffer.PooledByteBufAllocator"));
        holders.put("JOSDK's caches of the operator's own writes",
                sum(heap, "io.javaoperatorsdk.operator.processing.event.source.informer.TemporaryResourceCache"));
        holders.put("the rest (classes' statics, the JDK, JOSDK's and fabric8's own structures)",
                total - holders.values().stream().mapToLong(Long::longValue).sum());

        System.out.printf("%-110s %9s%s%n", "holder", "MB", clusters > 0 ? "   KB per cluster" : "");
        holders.forEach((name, bytes) -> System.out.printf("%-110s %9.2f%s%n", name, bytes / 1048576.0,
                clusters > 0 ? String.format("   %8.1f", bytes / 1024.0 / clusters) : ""));
        System.out.printf("%-110s %9.2f%n", "total live", total / 1048576.0);
    }

    private static List<Instance> instances(Heap heap, String className) {
        JavaClass type = heap.getJavaClassByName(className);
        List<Instance> all = new ArrayList<>();
        if (type != null) for (Object each : type.getInstances()) all.add((Instance) each);
        return all;
    }

    private static long sum(Heap heap, String className) {
        return instances(heap, className).stream().mapToLong(Instance::getRetainedSize).sum();
    }

    private static long retained(Instance instance) {
        return instance == null ? 0 : instance.getRetainedSize();
    }

    private static List<Instance> concurrentHashMapValues(Instance map) {
        List<Instance> values = new ArrayList<>();
        ObjectArrayInstance table = map == null ? null : (ObjectArrayInstance) map.getValueOfField("table");
        if (table == null) return values;
        for (Object bin : table.getValues()) {
            for (Instance node = (Instance) bin; node != null; node = (Instance) node.getValueOfField("next")) {
                Object value = node.getValueOfField("val");
                if (value instanceof Instance instance) values.add(instance);
            }
        }
        return values;
    }

    /** A java.lang.String's text (compact Latin-1 strings; others are shown by their length). */
    private static String string(Instance string) {
        if (string == null) return "?";
        Object value = string.getValueOfField("value");
        if (!(value instanceof PrimitiveArrayInstance array)) return "?";
        List<?> bytes = array.getValues();
        byte[] text = new byte[bytes.size()];
        for (int i = 0; i < text.length; i++) text[i] = Byte.parseByte((String) bytes.get(i));
        return new String(text, StandardCharsets.ISO_8859_1);
    }
}
