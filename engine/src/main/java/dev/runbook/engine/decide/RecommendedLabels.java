package dev.runbook.engine.decide;

import dev.runbook.engine.template.TemplateRenderer;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.Apply;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Primary;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Kubernetes' recommended labels on every object the operator applies, so that {@code kubectl get
 * -l app.kubernetes.io/managed-by=runbook-operator} finds all of them, and {@code part-of} and
 * {@code instance} say which bundle and which primary they were made for. Added once, where the plan
 * is collected, so the simulator, scenarios and the operator apply the same objects. A label the rule
 * or template already sets is kept (a bundle may know better); the primary itself is never labelled,
 * as its owner, not the operator, writes its metadata.
 */
public final class RecommendedLabels {
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String PART_OF = "app.kubernetes.io/part-of";
    public static final String INSTANCE = "app.kubernetes.io/instance";
    public static final String OPERATOR = "runbook-operator";

    private RecommendedLabels() {}

    /** The action with the labels added to its object when it is an apply of an object other than the primary. */
    public static Action of(Action action, String bundleName, Primary primary) {
        return action instanceof Apply apply ? of(apply, bundleName, primary) : action;
    }

    /** The apply with the labels added to its object unless it applies the primary. */
    static Apply of(Apply apply, String bundleName, Primary primary) {
        if (isPrimary(apply.getTarget(), primary)) return apply;
        Map<String, Object> object = labelled(apply.getObject(), bundleName, primary.getName());
        return object == apply.getObject() ? apply : new Apply(object, apply.getTemplate());
    }

    /** The labels added as templates are rendered, so that the render cache keeps the labelled action. */
    record OnRendered(String bundleName) implements TemplateRenderer.Finishing {
        @Override
        public Apply finish(Apply rendered, Primary primary) { return of(rendered, bundleName, primary); }
    }

    /** The object with each missing recommended label added; the same object when none is missing. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> labelled(Map<String, Object> object, String bundleName, String primaryName) {
        if (!(object.get("metadata") instanceof Map<?, ?> meta)) return object;
        Map<String, Object> given = meta.get("labels") instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
        Map<String, Object> labels = new LinkedHashMap<>(given);
        labels.putIfAbsent(MANAGED_BY, OPERATOR);
        labels.putIfAbsent(PART_OF, bundleName);
        if (primaryName != null && !primaryName.isEmpty()) labels.putIfAbsent(INSTANCE, primaryName);
        if (labels.size() == given.size()) return object;
        Map<String, Object> metadata = new LinkedHashMap<>((Map<String, Object>) meta);
        metadata.put("labels", labels);
        Map<String, Object> copy = new LinkedHashMap<>(object);
        copy.put("metadata", metadata);
        return copy;
    }

    private static boolean isPrimary(ObjectRef target, Primary primary) {
        return target.getKind().equals(primary.getKind()) && target.getName().equals(primary.getName())
                && target.getNamespace().equals(primary.getNamespace());
    }
}
