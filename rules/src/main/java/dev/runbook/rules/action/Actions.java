package dev.runbook.rules.action;

import dev.runbook.rules.fact.ObjectPath;
import dev.runbook.rules.fact.Primary;
import dev.runbook.rules.fact.Resource;
import dev.runbook.rules.function.Durations;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The actions a rule can add, as static functions for DRL. Import the ones a file uses:
 *
 * <pre>
 * import function dev.runbook.rules.action.Actions.setCondition;
 * ...
 * then
 *     insert(setCondition($cluster, "Ready", "True", "AllMembersReady", "3 of 3 members ready"));
 * </pre>
 */
public final class Actions {
    private Actions() {}

    /** Apply a whole object built by the rule (apiVersion, kind, metadata.name at least). */
    public static Apply apply(Map<String, ?> object) {
        return new Apply(object, null);
    }

    /** Apply the bundle template {@code templates/NAME}, rendered with the primary and parameters. */
    public static ApplyTemplate applyTemplate(String template) {
        return new ApplyTemplate(template, Map.of());
    }

    /** As {@link #applyTemplate(String)}, with extra variables for the template. */
    public static ApplyTemplate applyTemplate(String template, Map<String, ?> vars) {
        return new ApplyTemplate(template, vars);
    }

    public static MergePatch mergePatch(Resource target, Map<String, ?> patch) {
        return new MergePatch(target.getRef(), patch);
    }

    /** A merge patch of one field given by a dotted path, e.g. {@code spec.replicas}. */
    public static MergePatch mergePatch(Resource target, String path, Object value) {
        Map<String, Object> patch = new LinkedHashMap<>();
        Map<String, Object> level = patch;
        List<String> steps = ObjectPath.steps(path);
        for (int i = 0; i < steps.size() - 1; i++) {
            Map<String, Object> next = new LinkedHashMap<>();
            level.put(steps.get(i), next);
            level = next;
        }
        level.put(steps.get(steps.size() - 1), value);
        return new MergePatch(target.getRef(), patch);
    }

    public static Delete delete(Resource target) {
        return new Delete(target.getRef(), target.getUid());
    }

    /** @param path relative to {@code status}, e.g. {@code "phase"} */
    public static SetStatus setStatus(Resource target, String path, Object value) {
        return new SetStatus(target.getRef(), path, value);
    }

    /** @param status "True", "False" or "Unknown" */
    public static SetCondition setCondition(Resource target, String type, String status, String reason, String message) {
        return new SetCondition(target.getRef(), type, status, reason, message);
    }

    public static SetCondition setCondition(Resource target, String type, boolean status, String reason, String message) {
        return new SetCondition(target.getRef(), type, status ? "True" : "False", reason, message);
    }

    public static EmitEvent event(Resource target, String reason, String message) {
        return new EmitEvent(target.getRef(), "Normal", reason, message);
    }

    public static EmitEvent warning(Resource target, String reason, String message) {
        return new EmitEvent(target.getRef(), "Warning", reason, message);
    }

    /** Reconcile the primary again after {@code duration} ("30s", "5m"). */
    public static Requeue requeue(Primary primary, String duration) {
        return new Requeue(primary.getRef(), Durations.parse(duration));
    }

    public static SetMetadataEntry label(Resource target, String key, String value) {
        return new SetMetadataEntry(target.getRef(), SetMetadataEntry.Kind.LABEL, key, value);
    }

    public static SetMetadataEntry removeLabel(Resource target, String key) {
        return new SetMetadataEntry(target.getRef(), SetMetadataEntry.Kind.LABEL, key, null);
    }

    public static SetMetadataEntry annotate(Resource target, String key, String value) {
        return new SetMetadataEntry(target.getRef(), SetMetadataEntry.Kind.ANNOTATION, key, value);
    }

    public static SetMetadataEntry removeAnnotation(Resource target, String key) {
        return new SetMetadataEntry(target.getRef(), SetMetadataEntry.Kind.ANNOTATION, key, null);
    }

    /**
     * Cleanup of the deleted primary is finished: the operator releases its finalizer and Kubernetes
     * deletes it. Only meaningful while {@code Deleting()} holds; see docs/reference/actions.md.
     */
    public static FinishCleanup finishCleanup(Primary primary) {
        return new FinishCleanup(primary.getRef(), null);
    }
}
