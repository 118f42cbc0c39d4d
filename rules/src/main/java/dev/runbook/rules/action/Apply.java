package dev.runbook.rules.action;

import dev.runbook.rules.fact.ObjectPath;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Values;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The object should look like this (server-side apply with the bundle's field manager): created
 * when missing, its listed fields set when different, nothing done when they already match.
 */
public final class Apply extends Action {
    private final Map<String, Object> object;
    private final String template;

    /**
     * @param object   the whole desired object (apiVersion, kind, metadata.name, ...)
     * @param template the template it was rendered from, or null
     */
    public Apply(Map<String, ?> object, String template) {
        super(refOf(object));
        this.object = Values.frozenMap(object);
        this.template = template;
    }

    static ObjectRef refOf(Map<String, ?> object) {
        if (object == null) throw new IllegalArgumentException("apply needs an object");
        return ObjectRef.of(
                Values.scalarString(object.get("apiVersion"), "apiVersion"),
                Values.scalarString(object.get("kind"), "kind"),
                Values.scalarString(ObjectPath.read(object, "metadata.namespace"), "metadata.namespace"),
                Values.scalarString(ObjectPath.read(object, "metadata.name"), "metadata.name"));
    }

    @Override public String getType() { return "apply"; }

    public Map<String, Object> getObject() { return object; }

    /** The template this object was rendered from, or null when a rule built it directly. */
    public String getTemplate() { return template; }

    @Override
    public List<FieldWrite> writes() {
        List<FieldWrite> writes = new ArrayList<>();
        object.forEach((key, value) -> {
            if (key.equals("apiVersion") || key.equals("kind")) return;
            if (key.equals("metadata") && value instanceof Map<?, ?> metadata) {
                metadata.forEach((mk, mv) -> {
                    if (!mk.equals("name") && !mk.equals("namespace")) {
                        writes.addAll(FieldWrite.leaves(getTarget(), List.of("metadata", String.valueOf(mk)), mv));
                    }
                });
                return;
            }
            writes.addAll(FieldWrite.leaves(getTarget(), List.of(key), value));
        });
        return writes;
    }

    @Override
    protected void describe(Map<String, Object> into) {
        if (template != null) into.put("template", template);
        into.put("object", object);
    }
}
