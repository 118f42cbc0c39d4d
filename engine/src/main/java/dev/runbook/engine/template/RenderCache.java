package dev.runbook.engine.template;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.runbook.rules.action.Apply;
import dev.runbook.rules.fact.Primary;

import java.util.Map;
import java.util.Objects;

/**
 * What a bundle's templates rendered, kept so that a cycle over unchanged inputs renders nothing.
 * Two levels: by input (template, its variables, the primary's whole object, the parameters) to the
 * finished {@link Apply}, and by rendered text to the parsed object (each level keeps the {@link Digest} of
 * the primary and of the text, not their bytes), so that a primary whose status
 * changed re-runs MVEL (cheap) but not the YAML parse (the expensive part). A template is a pure
 * function of those inputs (templates see nothing else), so a hit is exactly what rendering would give.
 * The first level holds the action as finished by the renderer's {@link TemplateRenderer.Finishing}
 * step (the recommended labels), so a hit is also an action whose form, hash and writes were computed
 * in an earlier cycle.
 *
 * <p>The first level keeps one entry per {@link Slot}: a template rendered with the same variables and
 * finishing step for the same primary (its namespace, name and uid). A primary that changed (every
 * status write gives it a new resourceVersion, so it never equals an earlier version again) replaces
 * its entries instead of adding new ones beside them: before, each version of a primary left five
 * entries behind, each holding that version whole, until the bound evicted them (at 100 clusters
 * after convergence 2,760 entries for 500 live ones, 22 MB; docs/performance.md#the-operators-memory).
 *
 * <p>One per compiled bundle: a reload starts empty, and nothing is shared between bundles. Concurrent
 * cycles (one reconciler thread per primary) must not wait on each other here: the levels are Caffeine
 * caches (lock-free reads, bounded by size, least recently and least frequently used out). A
 * synchronized access-ordered map did this before and held one lock while keys walked whole primaries:
 * 41 of 50 reconciler threads waited on it at 1000 clusters (docs/performance-log.md, "The render
 * cache under concurrent cycles").
 *
 * <p>{@link #MAX_ENTRIES} per level holds every template of about 1,200 primaries of a five-template
 * bundle (postgres-cluster renders 5 objects per converged cluster: 5,000 at 1000 clusters). An entry
 * of the first level holds the finished action (about 4 KB for postgres-cluster's objects) and the
 * digest of the primary it was rendered from (of its {@link ValueBytes}, which were kept whole before:
 * 3-4 KB where the primary's maps were 18 KB); an entry of the second level the digest of its text.
 */
final class RenderCache {
    /** Per level; see the class comment for the size. */
    static final int MAX_ENTRIES = 6144;

    /**
     * Which entry an input may replace: the same template, variables and finishing step for the same
     * primary. Small: the primary's identity, not its object.
     */
    static final class Slot {
        private final String template;
        private final Map<String, Object> vars;
        private final TemplateRenderer.Finishing finishing;
        private final String namespace;
        private final String name;
        private final String uid;
        /**
         * Computed once, and equals written out: every template of every cycle looks its slot up, and a
         * record's equals and hashCode (method handles over every field) showed in each cycle's profile.
         */
        private final int hash;

        Slot(String template, Map<String, Object> vars, TemplateRenderer.Finishing finishing, String namespace,
             String name, String uid) {
            this.template = template;
            this.vars = vars;
            this.finishing = finishing;
            this.namespace = namespace;
            this.name = name;
            this.uid = uid;
            this.hash = Objects.hash(template, vars, finishing, namespace, name, uid);
        }

        @Override
        public boolean equals(Object other) {
            return other == this || other instanceof Slot s && hash == s.hash && Objects.equals(template, s.template)
                    && Objects.equals(name, s.name) && Objects.equals(namespace, s.namespace) && Objects.equals(uid, s.uid)
                    && Objects.equals(finishing, s.finishing) && Objects.equals(vars, s.vars);
        }

        @Override
        public int hashCode() { return hash; }
    }

    /**
     * Everything a template's output depends on, the finishing step included (a value: two renderers
     * with different steps never share an entry). The primary is kept as the {@link Digest} of its
     * {@link ValueBytes}, the parameters as the bundle's own map.
     */
    static final class Input {
        final Slot slot;
        /** Null when the primary holds a value {@link ValueBytes} cannot write: such an input is never a hit. */
        final Digest primary;
        final Map<String, Object> params;

        /** @param primaryDigest of the primary's {@link ValueBytes} (computed once per primary by the caller) */
        Input(String template, Map<String, Object> vars, Primary primary, Digest primaryDigest, Map<String, Object> params,
              TemplateRenderer.Finishing finishing) {
            this.slot = new Slot(template, vars, finishing, primary.getNamespace(), primary.getName(), primary.getUid());
            this.primary = primaryDigest;
            this.params = params;
        }

        /** The same slot, parameters and primary. */
        boolean sameAs(Input other) {
            return primary != null && slot.equals(other.slot) && primary.equals(other.primary)
                    && params.equals(other.params);
        }
    }

    /** What the first level keeps per slot: the input it was rendered from and the finished action. */
    private record Rendered(Input input, Apply apply) {}

    private final Cache<Slot, Rendered> byInput = bounded();
    private final Cache<Digest, Map<String, Object>> byText = bounded();

    Apply rendered(Input input) {
        Rendered last = byInput.getIfPresent(input.slot);
        return last != null && last.input().sameAs(input) ? last.apply() : null;
    }

    void rendered(Input input, Apply apply) { byInput.put(input.slot, new Rendered(input, apply)); }

    Map<String, Object> parsed(Digest text) { return byText.getIfPresent(text); }

    void parsed(Digest text, Map<String, Object> object) { byText.put(text, object); }

    /** Entries per level after pending evictions ran: {@code [byInput, byText]} (for tests). */
    long[] sizes() {
        byInput.cleanUp();
        byText.cleanUp();
        return new long[] {byInput.estimatedSize(), byText.estimatedSize()};
    }

    /**
     * Evictions run on the calling thread (not the common fork-join pool): a cycle's thread does the
     * little bookkeeping, and nothing of a bundle's cache outlives the cycle on another thread.
     */
    private static <K, V> Cache<K, V> bounded() {
        return Caffeine.newBuilder().maximumSize(MAX_ENTRIES).executor(Runnable::run).build();
    }
}
