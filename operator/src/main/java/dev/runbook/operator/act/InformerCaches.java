package dev.runbook.operator.act;

import dev.runbook.rules.fact.ObjectRef;

import java.util.Map;
import java.util.Optional;

/**
 * The informers' whole caches, for an object the cycle did not observe: one not mapped to the
 * primary, or one not there yet (the Service an apply is about to create). When an informer holds
 * every object of the target's kind in its namespace (no label selector), its having none means
 * there is none, as far as the API server has told it: the act phase then need not ask the server
 * before it applies. Without this each new object cost a GET answered 404, five per new
 * postgres-cluster.
 */
public interface InformerCaches {
    /** Nothing is known: every object the cycle did not observe is read from the API server. */
    InformerCaches NONE = new InformerCaches() {
        @Override public boolean covers(ObjectRef ref) { return false; }
        @Override public Optional<Map<String, Object>> get(ObjectRef ref) { return Optional.empty(); }
    };

    /** Whether an informer holds every object of {@code ref}'s kind in its namespace. */
    boolean covers(ObjectRef ref);

    /** The object as an informer holds it; empty when none holds it. */
    Optional<Map<String, Object>> get(ObjectRef ref);

    /**
     * Tells the informers of {@code ref}'s kind about a write a cycle made, as the API server answered
     * it, until their watch delivers it: the next cycle then sees the object as written, not the
     * version before it (nor no object at all after a create), and the watch's echo of the write starts
     * no cycle of its own. Without it, a cycle that started before the watch had delivered a create
     * applied the object again and reported it created twice.
     *
     * @param before the object as the cycle knew it before the write, or null when it created it
     */
    default void written(ObjectRef ref, Map<String, Object> before, Map<String, Object> after) {}
}
