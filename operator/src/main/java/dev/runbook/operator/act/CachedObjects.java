package dev.runbook.operator.act;

import dev.runbook.engine.decide.Observation;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Resource;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The objects a cycle observed (from the informer caches), by reference, and those the cycle itself
 * wrote since, as the API server answered: what the act and record phases compare with before they
 * send anything, so that an object that already is as desired costs no request. An object missing
 * here is read from the API server as before. One per cycle, used by one thread.
 */
public final class CachedObjects {
    private final Map<ObjectRef, Map<String, Object>> byRef = new HashMap<>();

    private CachedObjects() {}

    /** Nothing cached: every action reads its target from the API server. */
    public static CachedObjects none() {
        return new CachedObjects();
    }

    public static CachedObjects of(Observation observation) {
        CachedObjects cached = new CachedObjects();
        cached.put(observation.primary());
        observation.secondaries().forEach(cached::put);
        return cached;
    }

    private void put(Resource resource) {
        byRef.put(resource.getRef(), resource.getObject());
    }

    public Optional<Map<String, Object>> get(ObjectRef ref) {
        return Optional.ofNullable(byRef.get(ref));
    }

    /** The object as a write of this cycle returned it: newer than the cache. */
    public void written(ObjectRef ref, Map<String, Object> object) {
        if (object != null) byRef.put(ref, object);
    }

    /** Forgets an object whose cached copy proved stale (a 409): the next look reads it afresh. */
    public void stale(ObjectRef ref) {
        byRef.remove(ref);
    }
}
