package dev.runbook.engine.template;

import dev.runbook.rules.action.Apply;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

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
 * <p>One per compiled bundle: a reload starts empty, and nothing is shared between bundles. Bounded
 * (least recently used out) and safe for concurrent cycles; the values are immutable.
 */
final class RenderCache {
    /** Enough for every template of a few hundred primaries; each entry is a few KB. */
    static final int MAX_ENTRIES = 1024;

    /**
     * Everything a template's output depends on, the finishing step included (a value: two renderers
     * with different steps never share an entry). Maps compare by content.
     */
    record Input(String template, Map<String, Object> vars, Map<String, Object> primary, Map<String, Object> params,
                 TemplateRenderer.Finishing finishing) {}

    private final Map<Input, Apply> byInput = lru();
    private final Map<String, Map<String, Object>> byText = lru();

    Apply rendered(Input input) { return byInput.get(input); }

    void rendered(Input input, Apply apply) { byInput.put(input, apply); }

    Map<String, Object> parsed(String text) { return byText.get(text); }

    void parsed(String text, Map<String, Object> object) { byText.put(text, object); }

    private static <K, V> Map<K, V> lru() {
        return Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > MAX_ENTRIES;
            }
        });
    }
}
