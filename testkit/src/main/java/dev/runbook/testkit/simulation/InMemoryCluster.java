package dev.runbook.testkit.simulation;

import dev.runbook.engine.apply.Json;
import dev.runbook.engine.apply.KubeObject;
import dev.runbook.rules.fact.ObjectRef;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A {@link Cluster} held in memory, with a time that only moves when it is set. Uids are
 * {@code 00000000-0000-0000-0000-000000000001}, {@code ...002}, ... in the order objects are created,
 * and resourceVersions count every change across the cluster, so two runs of the same scenario produce
 * the same objects. Safe to share between threads; every call is atomic.
 */
public final class InMemoryCluster implements Cluster {

    private record Key(String kind, String namespace, String name) {
        static final Comparator<Key> ORDER = Comparator.comparing(Key::kind)
                .thenComparing(Key::namespace).thenComparing(Key::name);

        static Key of(ObjectRef ref) { return new Key(ref.getKind(), ref.getNamespace(), ref.getName()); }
    }

    private static final String DELETION_TIMESTAMP = "deletionTimestamp";

    private final TreeMap<Key, Map<String, Object>> objects = new TreeMap<>(Key.ORDER);
    private final List<Map<String, Object>> events = new ArrayList<>();
    private final Set<String> uids = new HashSet<>();
    private Instant now;
    private long lastUid;
    private long lastResourceVersion;

    /** An empty cluster whose time is {@code start}. */
    public InMemoryCluster(Instant start) {
        this.now = Objects.requireNonNull(start, "start");
    }

    @Override
    public synchronized Instant now() { return now; }

    /**
     * Moves the cluster's time to {@code now}.
     *
     * @throws IllegalArgumentException when {@code now} is before the current time: time never goes back
     */
    public synchronized void setNow(Instant now) {
        Objects.requireNonNull(now, "now");
        if (now.isBefore(this.now)) {
            throw new IllegalArgumentException("time cannot go back from " + this.now + " to " + now);
        }
        this.now = now;
    }

    @Override
    public synchronized Optional<Map<String, Object>> get(ObjectRef ref) {
        Map<String, Object> object = objects.get(Key.of(ref));
        return object == null ? Optional.empty() : Optional.of(Json.copyMap(object, "object"));
    }

    @Override
    public synchronized List<Map<String, Object>> list() {
        List<Map<String, Object>> all = new ArrayList<>(objects.size());
        objects.values().forEach(o -> all.add(Json.copyMap(o, "object")));
        return all;
    }

    @Override
    public synchronized List<Map<String, Object>> list(String kind) {
        List<Map<String, Object>> ofKind = new ArrayList<>();
        objects.forEach((key, o) -> {
            if (key.kind().equals(kind)) ofKind.add(Json.copyMap(o, "object"));
        });
        return ofKind;
    }

    @Override
    public synchronized void put(Map<String, Object> object) {
        if (object == null) throw new IllegalArgumentException("put needs an object");
        Map<String, Object> candidate = Json.copyMap(object, "object");
        ObjectRef ref = KubeObject.refOf(candidate);
        Key key = Key.of(ref);
        Map<String, Object> metadata = Json.child(candidate, "metadata", "metadata");
        Map<String, Object> stored = objects.get(key);

        if (stored == null) {
            String uid = Json.stringAt(metadata, "uid");
            if (uid == null) {
                uid = nextUid();
            } else if (uids.contains(uid)) {
                throw new IllegalArgumentException("cannot create " + ref + ": uid " + uid + " belongs to another object");
            }
            metadata.put("uid", uid);
            metadata.putIfAbsent("creationTimestamp", now.toString());
            metadata.putIfAbsent("generation", 1L);
            metadata.put("resourceVersion", nextResourceVersion());
            uids.add(uid);
            objects.put(key, candidate);
            return;
        }

        Map<String, Object> storedMetadata = Json.mapAt(stored, "metadata");
        String uid = Json.stringAt(storedMetadata, "uid");
        String givenUid = Json.stringAt(metadata, "uid");
        if (givenUid != null && !givenUid.equals(uid)) {
            throw new IllegalArgumentException("cannot replace " + ref + ": uid " + givenUid
                    + " is not its uid " + uid + " (a uid never changes)");
        }
        for (String field : KubeObject.SERVER_FIELDS) {
            Object value = storedMetadata.get(field);
            if (value == null) metadata.remove(field); else metadata.put(field, value);
        }
        if (Json.same(candidate, stored)) {
            return;
        }
        if (storedMetadata.get(DELETION_TIMESTAMP) != null && metadata.get(DELETION_TIMESTAMP) != null
                && hasFinalizers(storedMetadata) && !hasFinalizers(metadata)) {
            // The last finalizer is gone: the API server deletes the object with this very update.
            objects.remove(key);
            lastResourceVersion++;
            return;
        }
        if (!Json.same(desiredState(candidate), desiredState(stored))) {
            Object generation = storedMetadata.get("generation");
            long previous = generation instanceof Number n ? n.longValue() : 0L;
            metadata.put("generation", previous + 1);
        }
        metadata.put("resourceVersion", nextResourceVersion());
        objects.put(key, candidate);
    }

    /** Every top-level field but apiVersion, kind, metadata and status: what generation counts. */
    private static Map<String, Object> desiredState(Map<String, Object> object) {
        Map<String, Object> desired = new LinkedHashMap<>(object);
        desired.keySet().removeAll(List.of("apiVersion", "kind", "metadata", "status"));
        return desired;
    }

    /**
     * Deletes the object, as the API server does: at once when it has no finalizers; else it only gets
     * a {@code deletionTimestamp} (once) and stays until an update removes its last finalizer.
     */
    @Override
    public synchronized boolean delete(ObjectRef ref) {
        Key key = Key.of(ref);
        Map<String, Object> stored = objects.get(key);
        if (stored == null) return false;
        Map<String, Object> metadata = Json.mapAt(stored, "metadata");
        if (hasFinalizers(metadata)) {
            if (metadata.get(DELETION_TIMESTAMP) == null) {
                metadata.put(DELETION_TIMESTAMP, now.toString());
                metadata.put("resourceVersion", nextResourceVersion());
            }
            return true;
        }
        objects.remove(key);
        lastResourceVersion++;
        return true;
    }

    private static boolean hasFinalizers(Map<String, Object> metadata) {
        return metadata != null && metadata.get("finalizers") instanceof List<?> finalizers && !finalizers.isEmpty();
    }

    @Override
    public synchronized List<Map<String, Object>> events() {
        List<Map<String, Object>> copies = new ArrayList<>(events.size());
        events.forEach(e -> copies.add(Json.copyMap(e, "event")));
        return copies;
    }

    @Override
    public synchronized void recordEvent(ObjectRef involved, String type, String reason, String message, String component) {
        Objects.requireNonNull(involved, "involved");
        Map<String, Object> involvedObject = new LinkedHashMap<>(involved.toMap());
        Map<String, Object> target = objects.get(Key.of(involved));
        if (target != null) {
            involvedObject.put("uid", Json.stringAt(Json.mapAt(target, "metadata"), "uid"));
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", involved.getName() + "." + (events.size() + 1));
        metadata.put("namespace", involved.getNamespace().isEmpty() ? "default" : involved.getNamespace());
        metadata.put("uid", nextUid());
        metadata.put("resourceVersion", nextResourceVersion());
        metadata.put("creationTimestamp", now.toString());
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("apiVersion", "v1");
        event.put("kind", "Event");
        event.put("metadata", metadata);
        event.put("involvedObject", involvedObject);
        event.put("type", type);
        event.put("reason", reason);
        event.put("message", message == null ? "" : message);
        event.put("source", new LinkedHashMap<>(Map.of("component", component)));
        event.put("firstTimestamp", now.toString());
        event.put("lastTimestamp", now.toString());
        event.put("count", 1);
        events.add(event);
    }

    private String nextUid() {
        String uid;
        do {
            uid = String.format("00000000-0000-0000-0000-%012d", ++lastUid);
        } while (uids.contains(uid));
        return uid;
    }

    private String nextResourceVersion() {
        return Long.toString(++lastResourceVersion);
    }
}
