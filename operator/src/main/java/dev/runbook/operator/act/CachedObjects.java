package dev.runbook.operator.act;

import dev.runbook.engine.decide.Observation;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Resource;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The objects a cycle observed (from the informer caches), by reference, and those the cycle itself
 * wrote since, as the API server answered: what the act and record phases compare with before they
 * send anything, so that an object that already is as desired costs no request. An object the cycle
 * did not observe is looked up in the informers' whole caches ({@link InformerCaches}); one no
 * informer covers is read from the API server as before. One per cycle, used by one thread.
 */
public final class CachedObjects {
    private final Map<ObjectRef, Map<String, Object>> byRef = new HashMap<>();
    private final InformerCaches informers;
    /** Objects whose cached copy proved stale (a 409): read afresh from the API server. */
    private final Set<ObjectRef> stale = new HashSet<>();

    private CachedObjects(InformerCaches informers) {
        this.informers = informers;
    }

    /** Nothing cached: every action reads its target from the API server. */
    public static CachedObjects none() {
        return new CachedObjects(InformerCaches.NONE);
    }

    public static CachedObjects of(Observation observation) {
        return of(observation, InformerCaches.NONE);
    }

    public static CachedObjects of(Observation observation, InformerCaches informers) {
        CachedObjects cached = new CachedObjects(informers);
        cached.put(observation.primary());
        observation.secondaries().forEach(cached::put);
        return cached;
    }

    private void put(Resource resource) {
        byRef.put(resource.getRef(), resource.getObject());
    }

    public Optional<Map<String, Object>> get(ObjectRef ref) {
        Map<String, Object> object = byRef.get(ref);
        if (object != null) return Optional.of(object);
        return covers(ref) ? informers.get(ref) : Optional.empty();
    }

    /**
     * Whether {@link #get} answers for {@code ref} without the API server: the cycle observed or wrote
     * it, or an informer holds every object of its kind there, so that empty means there is none.
     */
    public boolean covers(ObjectRef ref) {
        return byRef.containsKey(ref) || (!stale.contains(ref) && informers.covers(ref));
    }

    /**
     * The object as a write of this cycle returned it: newer than the cache. The informers are told
     * too ({@link InformerCaches#written}), so that the next cycles see it before the watch delivers it.
     *
     * @param before the object the write was computed from, as read before it was sent; null for a
     *               create. Not looked up again here: by the time the answer comes, the informer may hold
     *               a newer version than the write's (its watch delivered the write and later changes
     *               first), and a write said to replace that one would put the older object back.
     */
    public void written(ObjectRef ref, Map<String, Object> before, Map<String, Object> object) {
        if (object != null) {
            informers.written(ref, before, object);
            byRef.put(ref, object);
            stale.remove(ref);
        }
    }

    /** Forgets an object whose cached copy proved stale (a 409): the next look reads it afresh. */
    public void stale(ObjectRef ref) {
        byRef.remove(ref);
        stale.add(ref);
    }
}
