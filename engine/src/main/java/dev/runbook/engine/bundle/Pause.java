package dev.runbook.engine.bundle;

import dev.runbook.engine.yaml.YamlMap;
import dev.runbook.rules.fact.Resource;

import java.util.Locale;

/**
 * A bundle's {@code pause:} section: how a user pauses one primary, by a boolean spec field
 * ({@code field: spec.paused}) or an annotation whose value is {@code "true"}
 * ({@code annotation: example.com/paused}). While a primary is paused, the engine inserts a
 * {@link dev.runbook.rules.fact.Paused} fact and fires only the rules that ask for no action, or that
 * declare {@code @whilePaused} (docs/reference/idioms.md#pause).
 */
public record Pause(String field, String annotation) {
    /** The rule attribute by which a rule says it still fires, actions and all, while its primary is paused. */
    public static final String WHILE_PAUSED = "whilePaused";

    public Pause {
        if ((field == null) == (annotation == null)) {
            throw new IllegalArgumentException("a pause is declared by exactly one of field and annotation");
        }
    }

    /** Whether {@code primary} is paused. A field that is not a boolean is a rule-visible error, as in any rule's read. */
    public boolean holds(Resource primary) {
        if (field != null) return primary.bool(field, false);
        String value = primary.annotation(annotation);
        return value != null && value.trim().toLowerCase(Locale.ROOT).equals("true");
    }

    /** What pauses a primary, for messages and the {@code Paused} fact: {@code spec.paused} or {@code annotation NAME}. */
    public String describe() {
        return field != null ? field : "annotation " + annotation;
    }

    /** The {@code pause:} section, or null when bundle.yaml has none (then nothing pauses the bundle's primaries). */
    static Pause parse(YamlMap root) {
        if (!root.has("pause")) return null;
        YamlMap pause = root.map("pause");
        if (pause == null) throw root.error("pause", "expected a mapping, e.g. pause: {field: spec.paused}");
        pause.allowOnly(BundleSpecParser.keysOf("pause"));
        if (pause.has("field") == pause.has("annotation")) {
            throw root.error("pause", "give exactly one of field (e.g. spec.paused) and annotation (e.g. example.com/paused)");
        }
        if (pause.has("annotation")) return new Pause(null, pause.string("annotation", "the annotation that pauses a primary"));
        String field = pause.string("field", "the boolean field that pauses a primary, e.g. spec.paused");
        if (!field.startsWith("spec.")) {
            throw pause.error("field", "'" + field + "' is not under spec: a user pauses a primary by its spec, e.g. spec.paused");
        }
        return new Pause(field, null);
    }
}
