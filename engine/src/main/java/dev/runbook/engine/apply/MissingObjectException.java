package dev.runbook.engine.apply;

import dev.runbook.rules.fact.ObjectRef;

/**
 * An action or a world change named an object that is not in the cluster. Kubernetes answers such a
 * request with 404 Not Found; the simulator throws, so a scenario that acts on a missing object fails
 * where it happened instead of passing silently.
 */
public final class MissingObjectException extends IllegalStateException {
    private final transient ObjectRef ref;

    public MissingObjectException(String what, ObjectRef ref) {
        super(what + ": " + ref + " does not exist");
        this.ref = ref;
    }

    /** The object that was not found. */
    public ObjectRef getRef() { return ref; }
}
