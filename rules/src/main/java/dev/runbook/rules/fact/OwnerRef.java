package dev.runbook.rules.fact;

import java.util.Map;

/** One entry of {@code metadata.ownerReferences}. */
public record OwnerRef(String apiVersion, String kind, String name, String uid, boolean controller) {

    static OwnerRef fromMap(Map<?, ?> map) {
        return new OwnerRef(
                Values.asString(map.get("apiVersion")),
                Values.asString(map.get("kind")),
                Values.asString(map.get("name")),
                Values.asString(map.get("uid")),
                Boolean.TRUE.equals(map.get("controller")));
    }

    public String getKind() { return kind; }
    public String getName() { return name; }
    public String getUid() { return uid; }
    public boolean isController() { return controller; }
}
