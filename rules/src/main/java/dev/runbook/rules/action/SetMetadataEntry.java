package dev.runbook.rules.action;

import dev.runbook.rules.fact.ObjectRef;

import java.util.List;
import java.util.Map;

/** A label or an annotation of the target should have this value; a null value removes it. */
public final class SetMetadataEntry extends Action {
    /** Which metadata map the entry lives in. */
    public enum Kind {
        LABEL("label", "labels"), ANNOTATION("annotate", "annotations");

        private final String actionType;
        private final String field;

        Kind(String actionType, String field) {
            this.actionType = actionType;
            this.field = field;
        }
    }

    private final Kind kind;
    private final String key;
    private final String value;

    public SetMetadataEntry(ObjectRef target, Kind kind, String key, String value) {
        super(target);
        if (key == null || key.isBlank()) {
            throw new IllegalArgumentException(kind.actionType + " on " + target + " needs a key");
        }
        this.kind = kind;
        this.key = key;
        this.value = value;
    }

    @Override public String getType() { return kind.actionType; }
    public String getKey() { return key; }
    /** The value to set, or null to remove the entry. */
    public String getValue() { return value; }
    /** {@code labels} or {@code annotations}. */
    public String getField() { return kind.field; }

    @Override
    protected String intentKey() { return key; }

    @Override
    public List<FieldWrite> writes() {
        return List.of(new FieldWrite(getTarget(), List.of("metadata", kind.field, key), value));
    }

    @Override
    protected void describe(Map<String, Object> into) {
        into.put("key", key);
        into.put("value", value);
    }
}
