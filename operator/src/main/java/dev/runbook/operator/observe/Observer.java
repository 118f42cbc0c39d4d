package dev.runbook.operator.observe;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.SecondaryKind;
import dev.runbook.engine.decide.Observation;
import dev.runbook.rules.fact.Primary;
import dev.runbook.rules.fact.Resource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The observe phase: the primary and the secondary objects that the informers cached for it become
 * the facts of an {@link Observation}. Nothing is read from the API server here: the objects come from
 * the caches, so a cycle decides on one consistent picture and costs no request.
 *
 * <p>Objects mapped by owner reference are kept only when they name this primary by uid, so that
 * objects left behind by a deleted primary of the same name are not mistaken for its own.
 */
public final class Observer {
    private final BundleSpec spec;

    public Observer(BundleSpec spec) {
        this.spec = spec;
    }

    /**
     * @param primary     the primary as nested maps
     * @param secondaries per secondary kind of the bundle (same order as {@code bundle.yaml}), the cached
     *                    objects mapped to this primary, as nested maps
     */
    public Observation observe(Map<String, Object> primary, List<List<Map<String, Object>>> secondaries, Instant now) {
        if (secondaries.size() != spec.secondaries().size()) {
            throw new IllegalArgumentException("expected the objects of " + spec.secondaries().size()
                    + " secondary kinds, got " + secondaries.size());
        }
        Primary fact = new Primary(primary);
        List<Resource> facts = new ArrayList<>();
        for (int i = 0; i < secondaries.size(); i++) {
            SecondaryKind kind = spec.secondaries().get(i);
            for (Map<String, Object> object : secondaries.get(i)) {
                Resource resource = new Resource(object);
                if (kind.mapping() == SecondaryKind.Mapping.OWNER && !ownedBy(resource, fact)) continue;
                facts.add(resource);
            }
        }
        return new Observation(fact, facts, now);
    }

    private static boolean ownedBy(Resource resource, Primary primary) {
        return primary.getUid().isEmpty() || resource.getOwners().stream().anyMatch(o -> primary.getUid().equals(o.uid()));
    }
}
