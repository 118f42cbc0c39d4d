package dev.runbook.benchmarks;

import dev.runbook.engine.decide.Observation;
import dev.runbook.rules.fact.Primary;
import dev.runbook.rules.fact.Resource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects a store's cycle sees, of a chosen size: the Store, one Pod and one
 * PersistentVolumeClaim per member, a StatefulSet, three Services, two ConfigMaps and some Jobs.
 * Every member is ready and labelled; one job has failed, the others completed (some of them
 * more than a day ago).
 */
public final class ClusterState {
    public static final Instant NOW = Instant.parse("2026-11-30T09:00:00Z");
    private static final String NAME = "main";
    private static final String NAMESPACE = "demo";
    /** Objects other than pods, claims and jobs: Store, StatefulSet, three Services, two ConfigMaps. */
    private static final int FIXED = 7;

    private ClusterState() {}

    /**
     * An observation of exactly {@code objects} objects (primary included), with as many members
     * as fit: 15 objects are 3 members and 2 jobs, 100 objects are 30 members and 33 jobs.
     */
    public static Observation observation(int objects) {
        int members = switch (objects) {
            case 10 -> 1;
            case 15 -> 3;
            case 100 -> 30;
            default -> Math.max(1, (objects - FIXED) / 3);
        };
        int jobs = objects - FIXED - 2 * members;
        if (jobs < 1) throw new IllegalArgumentException("too few objects for " + members + " members: " + objects);
        return observation(members, jobs);
    }

    public static Observation observation(int members, int jobs) {
        Primary primary = new Primary(map(
                "apiVersion", "bench.runbook.dev/v1",
                "kind", "Store",
                "metadata", metadata(NAME, Map.of(), Map.of(), 3),
                "spec", map("instances", members, "image", "store:1.4", "tier", "tier-2",
                        "features", map("f0", true, "f1", true)),
                "status", map("currentPrimary", NAME + "-0")));
        List<Resource> secondaries = new ArrayList<>();
        Map<String, String> instance = Map.of("app.kubernetes.io/instance", NAME);
        for (int i = 0; i < members; i++) {
            String pod = NAME + "-" + i;
            Map<String, String> labels = new LinkedHashMap<>(instance);
            labels.put("role", i == 0 ? "primary" : "replica");
            labels.put("features.runbook.dev/f0", "on");
            secondaries.add(new Resource(map(
                    "apiVersion", "v1", "kind", "Pod",
                    "metadata", metadata(pod, labels, Map.of("bench.runbook.dev/position", String.valueOf(900 - i)), 0),
                    "spec", map("containers", List.of(map("name", "store", "image", "store:1.4"))),
                    "status", map("phase", "Running", "conditions", List.of(
                            condition("PodScheduled", "True", Duration.ofHours(3)),
                            condition("Initialized", "True", Duration.ofHours(3)),
                            condition("ContainersReady", "True", Duration.ofHours(2)),
                            condition("Ready", "True", Duration.ofHours(2)))))));
            secondaries.add(new Resource(map(
                    "apiVersion", "v1", "kind", "PersistentVolumeClaim",
                    "metadata", metadata("data-" + pod, instance, Map.of(), 0),
                    "spec", map("accessModes", List.of("ReadWriteOnce"), "resources", map("requests", map("storage", "10Gi"))),
                    "status", map("phase", "Bound"))));
        }
        secondaries.add(new Resource(map(
                "apiVersion", "apps/v1", "kind", "StatefulSet",
                "metadata", metadata(NAME, instance, Map.of(), 2),
                "spec", map("replicas", members, "serviceName", NAME + "-headless"),
                "status", map("replicas", members, "readyReplicas", members, "currentRevision", NAME + "-7c9f"))));
        for (String suffix : List.of("-rw", "-ro", "-headless")) {
            secondaries.add(new Resource(map(
                    "apiVersion", "v1", "kind", "Service",
                    "metadata", metadata(NAME + suffix, instance, Map.of(), 0),
                    "spec", map("ports", List.of(map("name", "store", "port", 5432)), "selector", instance))));
        }
        secondaries.add(new Resource(map(
                "apiVersion", "v1", "kind", "ConfigMap",
                "metadata", metadata(NAME + "-config", instance, Map.of(), 0),
                "data", map("image", "store:1.4", "log-level", "info"))));
        secondaries.add(new Resource(map(
                "apiVersion", "v1", "kind", "ConfigMap",
                "metadata", metadata(NAME + "-scripts", instance, Map.of(), 0),
                "data", map("backup.sh", "#!/bin/sh\nexec store-backup\n"))));
        for (int j = 0; j < jobs; j++) {
            boolean failed = j == 1;
            Duration age = Duration.ofHours(2L + 3L * j);
            Map<String, String> labels = new LinkedHashMap<>(instance);
            labels.put("bench.runbook.dev/task", "task-" + (j % 5));
            Map<String, Object> status = failed
                    ? map("failed", 1, "conditions", List.of(condition("Failed", "True", age.minusHours(1))))
                    : map("succeeded", 1, "completionTime", NOW.minus(age.minusHours(1)).toString(),
                            "conditions", List.of(condition("Complete", "True", age.minusHours(1))));
            Map<String, Object> metadata = metadata(NAME + "-backup-" + j, labels, Map.of(), 1);
            metadata.put("creationTimestamp", NOW.minus(age).toString());
            secondaries.add(new Resource(map(
                    "apiVersion", "batch/v1", "kind", "Job",
                    "metadata", metadata,
                    "spec", map("backoffLimit", 0),
                    "status", status)));
        }
        return new Observation(primary, secondaries, NOW);
    }

    private static Map<String, Object> metadata(String name, Map<String, String> labels,
                                                Map<String, String> annotations, long generation) {
        Map<String, Object> metadata = map("name", name, "namespace", NAMESPACE, "uid", "uid-" + name,
                "resourceVersion", "1000", "creationTimestamp", NOW.minus(Duration.ofDays(3)).toString());
        if (!labels.isEmpty()) metadata.put("labels", new LinkedHashMap<>(labels));
        if (!annotations.isEmpty()) metadata.put("annotations", new LinkedHashMap<>(annotations));
        if (generation > 0) metadata.put("generation", generation);
        return metadata;
    }

    private static Map<String, Object> condition(String type, String status, Duration ago) {
        return map("type", type, "status", status, "lastTransitionTime", NOW.minus(ago).toString());
    }

    private static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        return map;
    }
}
