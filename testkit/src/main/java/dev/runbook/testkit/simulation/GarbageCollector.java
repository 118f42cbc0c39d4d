package dev.runbook.testkit.simulation;

import dev.runbook.engine.apply.Json;
import dev.runbook.engine.apply.KubeObject;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The garbage collector of the simulated cluster: removes objects whose owners are gone. */
final class GarbageCollector {
    private final Cluster cluster;

    GarbageCollector(Cluster cluster) {
        this.cluster = cluster;
    }

    /**
     * Deletes every object all of whose owner references name, by uid, owners that no longer exist
     * (an owner in another namespace does not count, as in Kubernetes). An object with an owner
     * reference without a uid is left alone. Dependents of what it deletes go in the next round.
     */
    boolean collectGarbage() {
        List<Map<String, Object>> all = cluster.list();
        Map<String, String> namespaceByUid = new HashMap<>();
        for (Map<String, Object> object : all) {
            String uid = ObjectFields.uid(object);
            if (uid != null) namespaceByUid.put(uid, ObjectFields.namespace(object));
        }
        boolean changed = false;
        for (Map<String, Object> object : all) {
            List<Map<String, Object>> owners = ObjectFields.ownerReferences(object);
            if (owners.isEmpty()) continue;
            boolean orphan = true;
            for (Map<String, Object> owner : owners) {
                String ownerUid = Json.stringAt(owner, "uid");
                if (ownerUid == null || ownerUid.isBlank()) {
                    orphan = false;
                    break;
                }
                String ownerNamespace = namespaceByUid.get(ownerUid);
                if (ownerNamespace != null && (ownerNamespace.isEmpty() || ownerNamespace.equals(ObjectFields.namespace(object)))) {
                    orphan = false;
                    break;
                }
            }
            if (orphan) {
                cluster.delete(KubeObject.refOf(object));
                changed = true;
            }
        }
        return changed;
    }
}
