package dev.runbook.sandbox;

import dev.runbook.engine.bundle.Kind;
import dev.runbook.testkit.simulation.Cluster;
import dev.runbook.operator.kube.EventWriter;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.kube.Maps;
import dev.runbook.rules.fact.ObjectRef;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The engine's {@link Cluster} over a real (or mock) API server, for one namespace and a given set of
 * kinds: so that the engine's {@code SimulatedControllers} (StatefulSets making pods, a kubelet making
 * them ready, Jobs, garbage collection) can play the controllers an API server without nodes lacks,
 * as the sandbox and the integration tests need.
 *
 * <p>{@link #list()} covers only the kinds given, in the namespace given: include every kind that
 * owns objects of the others (the primary kind too), or the simulated garbage collector takes their
 * objects for orphans. A {@link #put} of an object that carries a resourceVersion is refused with 409
 * when the object changed since it was read, as on any API server.
 */
public final class KubeCluster implements Cluster {
    private final KubeApi api;
    private final EventWriter events;
    private final String namespace;
    private final Map<String, Kind> kinds = new LinkedHashMap<>();
    private final Clock clock;

    public KubeCluster(KubeApi api, String namespace, List<Kind> kinds, Clock clock) {
        this.api = api;
        this.events = new EventWriter(api.client());
        this.namespace = namespace;
        kinds.stream().sorted(Comparator.comparing(Kind::kind)).forEach(k -> this.kinds.put(k.kind(), k));
        this.clock = clock;
    }

    @Override
    public Instant now() { return clock.instant(); }

    private ObjectRef resolved(ObjectRef ref) {
        if (!ref.getApiVersion().isEmpty()) return ref;
        Kind kind = kinds.get(ref.getKind());
        if (kind == null) throw new IllegalArgumentException(ref + ": no apiVersion, and " + ref.getKind() + " is not a kind of this cluster view");
        return ObjectRef.of(kind.apiVersion(), ref.getKind(), ref.getNamespace(), ref.getName());
    }

    @Override
    public Optional<Map<String, Object>> get(ObjectRef ref) {
        return api.get(resolved(ref));
    }

    @Override
    public List<Map<String, Object>> list() {
        List<Map<String, Object>> all = new ArrayList<>();
        kinds.keySet().forEach(kind -> all.addAll(list(kind)));
        return all;
    }

    @Override
    public List<Map<String, Object>> list(String kind) {
        Kind known = kinds.get(kind);
        if (known == null) return List.of();
        List<Map<String, Object>> objects = new ArrayList<>(api.list(known.apiVersion(), known.kind(), namespace, Map.of()));
        objects.sort(Comparator.comparing((Map<String, Object> o) -> String.valueOf(Maps.map(o, "metadata").get("name"))));
        return objects;
    }

    @Override
    public void put(Map<String, Object> object) {
        ObjectRef ref = Maps.refOf(object);
        Optional<Map<String, Object>> existing = api.get(ref);
        Map<String, Object> desired = Maps.copy(object);
        Map<String, Object> stored;
        if (existing.isEmpty()) {
            Maps.map(desired, "metadata").remove("resourceVersion");
            stored = api.create(desired);
        } else {
            if (Maps.resourceVersion(desired) == null) {
                Maps.map(desired, "metadata").put("resourceVersion", Maps.resourceVersion(existing.get()));
            }
            stored = api.replace(desired);
        }
        Map<String, Object> status = Maps.map(object, "status");
        if (!Maps.same(Maps.map(stored, "status"), status)) {
            Map<String, Object> withStatus = Maps.copy(stored);
            withStatus.put("status", Maps.copy(status));
            api.replaceStatus(withStatus);
        }
    }

    @Override
    public boolean delete(ObjectRef ref) {
        return api.delete(resolved(ref));
    }

    @Override
    public List<Map<String, Object>> events() {
        return api.client().v1().events().inNamespace(namespace).list().getItems().stream().map(api::toMap).toList();
    }

    @Override
    public void recordEvent(ObjectRef involved, String type, String reason, String message, String component) {
        String uid = get(involved).map(Maps::uid).orElse(null);
        events.record(resolved(involved), uid, type, reason, message, component, now());
    }

    /** The client underneath, for callers that need more than the {@link Cluster} view. */
    public KubernetesClient client() { return api.client(); }
}
