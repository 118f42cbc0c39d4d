package dev.runbook.operator.testkit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

import java.util.Map;

/**
 * A test's write to an object the operator, a controller or kwok writes too, sent as a JSON merge patch:
 * it carries no resourceVersion, so another writer's update between the test's read and its write cannot
 * make it fail with 409 Conflict (fabric8's {@code edit} sends the version it read). It is how an instance
 * manager reports and how {@code kubectl patch --type merge} writes.
 */
public final class MergePatches {
    private MergePatches() {}

    /** Merges the fields (nested maps, as the object's JSON) into the object; the object as written. */
    public static <T> T merge(KubernetesClient client, Resource<T> object, Map<String, Object> fields) {
        return object.patch(PatchContext.of(PatchType.JSON_MERGE), client.getKubernetesSerialization().asJson(fields));
    }
}
