package dev.runbook.engine.template;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.runbook.rules.action.Apply;

import java.util.Map;
import java.util.Objects;

/**
 * What a bundle's templates rendered, kept so that a cycle over unchanged inputs renders nothing.
 * Two levels: by input (template, its variables, the primary's whole object, the parameters) to the
 * finished {@link Apply}, and by rendered text to the parsed object, so that a primary whose status
 * changed re-runs MVEL (cheap) but not the YAML parse (the expensive part). A template is a pure
 * function of those inputs (templates see nothing else), so a hit is exactly what rendering would give.
 * The first level holds the action as finished by the renderer's {@link TemplateRenderer.Finishing}
 * step (the recommended labels), so a hit is also an action whose form, hash and writes were computed
 * in an earlier cycle.
 *
 * <p>One per compiled bundle: a reload starts empty, and nothing is shared between bundles. Concurrent
 * cycles (one reconciler thread per primary) must not wait on each other here: an {@link Input} hashes
 * its whole primary once, on the calling thread, and the levels are Caffeine caches (lock-free reads,
 * bounded by size, least recently and least frequently used out). A synchronized access-ordered map
 * did this before and held one lock while keys walked whole primaries: 41 of 50 reconciler threads
 * waited on it at 1000 clusters (docs/performance.md, "The render cache under concurrent cycles").
 *
 * <p>{@link #MAX_ENTRIES} per level holds every template of about 1,200 primaries of a five-template
 * bundle (postgres-cluster renders 5 objects per converged cluster: 5,000 at 1000 clusters, with a
 * fifth to spare for the entries a changed primary leaves behind). A rendered object costs about 8 KB
 * in both levels together (measured: the postgres-cluster templates rendered for 1000 clusters into
 * an empty cache, heap after a full collection before and after: 39.7 MB for 5,000 objects; the
 * primary a key refers to is the one the caller keeps, not a copy), so the cache holds at most
 * about 49 MB (48.9 MB measured with both levels full). Beyond the bound, frequency-based admission
 * keeps most of the working set (1,600 clusters in rounds: 67–76% of renders hit), where a least
 * recently used map misses every render of a cyclic pass larger than itself.
 */
final class RenderCache {
    /** Per level; see the class comment for the size and the measurement. */
    static final int MAX_ENTRIES = 6144;

    /**
     * Everything a template's output depends on, the finishing step included (a value: two renderers
     * with different steps never share an entry). Maps compare by content. The hash walks the whole
     * primary, so it is computed once, here, outside the cache.
     */
    static final class Input {
        final String template;
        final Map<String, Object> vars;
        final Map<String, Object> primary;
        final Map<String, Object> params;
        final TemplateRenderer.Finishing finishing;
        private final int hash;

        Input(String template, Map<String, Object> vars, Map<String, Object> primary, Map<String, Object> params,
              TemplateRenderer.Finishing finishing) {
            this.template = template;
            this.vars = vars;
            this.primary = primary;
            this.params = params;
            this.finishing = finishing;
            this.hash = Objects.hash(template, vars, primary, params, finishing);
        }

        @Override
        public int hashCode() { return hash; }

        @Override
        public boolean equals(Object other) {
            return other == this || other instanceof Input that && hash == that.hash
                    && template.equals(that.template) && Objects.equals(finishing, that.finishing)
                    && vars.equals(that.vars) && params.equals(that.params) && primary.equals(that.primary);
        }
    }

    private final Cache<Input, Apply> byInput = bounded();
    private final Cache<String, Map<String, Object>> byText = bounded();

    Apply rendered(Input input) { return byInput.getIfPresent(input); }

    void rendered(Input input, Apply apply) { byInput.put(input, apply); }

    Map<String, Object> parsed(String text) { return byText.getIfPresent(text); }

    void parsed(String text, Map<String, Object> object) { byText.put(text, object); }

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
