package dev.runbook.engine.apply;

import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.Apply;
import dev.runbook.rules.action.ApplyTemplate;
import dev.runbook.rules.action.Delete;
import dev.runbook.rules.action.FinishCleanup;
import dev.runbook.rules.action.EmitEvent;
import dev.runbook.rules.action.MergePatch;
import dev.runbook.rules.action.Requeue;
import dev.runbook.rules.action.SetCondition;
import dev.runbook.rules.action.SetMetadataEntry;
import dev.runbook.rules.action.SetStatus;
import dev.runbook.rules.fact.ObjectPath;
import dev.runbook.rules.fact.ObjectRef;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What an action does to the object it targets, computed from the object as it is (or its absence)
 * without any cluster: the one definition of an action's effect, shared by the simulated cluster
 * (which stores the result) and the operator (which sends the difference to the API server).
 *
 * <p>Each effect is idempotent by construction: an action whose effect is already there reports
 * {@link Outcome#NONE}. An action other than {@code apply}, {@code delete}, {@code event} and
 * {@code requeue} whose target is absent throws {@link MissingObjectException}, as the Kubernetes API
 * answers 404. Server-managed metadata ({@code uid}, {@code resourceVersion}, {@code generation},
 * {@code creationTimestamp}) cannot be written through actions: values given for them are ignored,
 * and {@code kind}, {@code metadata.name} and {@code metadata.namespace} cannot be changed (nor
 * {@code apiVersion} removed).
 *
 * <p>The object afterwards is built by copying only what the action writes: the object's top-level
 * map, and the maps and lists on the way to the field written ({@code status} and the field below it,
 * the condition and the list of conditions, {@code metadata} and its labels, annotations or
 * finalizers); {@code apply} and {@code mergePatch}, which may write anywhere, copy the whole object
 * once. Everything else is shared with the object given, so that projecting a cycle's status actions
 * on its primary, one after the other, copies a few small maps per action, not the whole primary
 * twice; and comparing the object before and after (for {@link Outcome#NONE}) stops at every value
 * they share ({@link Json#same} compares a value with itself at once). Hence the contract: the object
 * given is never changed, and neither it nor the object returned may be changed in place by the
 * caller while the other is in use; read them, or copy them ({@link Json#copy}) to build on them.
 * The operator reads both (the cached object is frozen), and the simulated cluster copies what it
 * stores and what it hands out.
 */
public final class ActionEffect {
    private ActionEffect() {}

    /**
     * The effect of {@code action} on {@code current}.
     *
     * @param current the target as it is now, or null when it does not exist; it is not modified. It
     *                should hold only JSON values (as objects from the API server and the simulated
     *                cluster do): apart from {@code apply} and {@code mergePatch}, which copy it whole,
     *                its values outside what the action writes are neither checked nor normalised
     * @param now     the time a condition's {@code lastTransitionTime} is taken from
     * @return the outcome and the object afterwards, sharing with {@code current} what the action did
     *         not write (see the class comment); {@code current} itself when the outcome is NONE. The
     *         object is null when the action deletes it or it stays absent. An {@code event} changes no
     *         object: its outcome is CREATED (the event) and the object is {@code current}.
     * @throws MissingObjectException   when a mergePatch, setStatus, setCondition, label or annotate
     *                                  names an object that does not exist, or {@code current} is another
     *                                  object than the action's target
     * @throws IllegalArgumentException for an unrendered applyTemplate, an unknown action, or an action
     *                                  that would change an object's identity
     * @throws IllegalStateException    when the object's shape contradicts the action (e.g.
     *                                  {@code status.conditions} is not a list)
     */
    public static Change on(Map<String, Object> current, Action action, Instant now) {
        requireKnown(action);
        Map<String, Object> existing = current;
        if (existing != null) requireTarget(action, existing);
        if (action instanceof Apply apply) return apply(apply, existing);
        if (action instanceof Delete) return existing == null ? new Change(Outcome.NONE, null) : new Change(Outcome.DELETED, null);
        if (action instanceof EmitEvent) return new Change(Outcome.CREATED, existing);
        if (action instanceof Requeue) return new Change(Outcome.NONE, existing);
        if (existing == null) throw new MissingObjectException(action.identity(), action.getTarget());
        if (action instanceof MergePatch patch) return mergePatch(patch, existing);
        if (action instanceof SetStatus setStatus) return setStatus(setStatus, existing);
        if (action instanceof SetCondition setCondition) return setCondition(setCondition, existing, now);
        if (action instanceof FinishCleanup cleanup) return finishCleanup(cleanup, existing);
        return setMetadataEntry((SetMetadataEntry) action, existing);
    }

    /**
     * Refuses what cannot be applied at all, before anything is read.
     *
     * @throws IllegalArgumentException for an unrendered applyTemplate or an unknown action type
     */
    public static void requireKnown(Action action) {
        Objects.requireNonNull(action, "action");
        if (action instanceof ApplyTemplate) {
            throw new IllegalArgumentException(action.identity()
                    + ": a template must be rendered by the engine before it is applied");
        }
        if (!(action instanceof Apply || action instanceof MergePatch || action instanceof Delete
                || action instanceof SetStatus || action instanceof SetCondition || action instanceof EmitEvent
                || action instanceof Requeue || action instanceof SetMetadataEntry || action instanceof FinishCleanup)) {
            throw new IllegalArgumentException(action.identity() + ": the simulator does not know the action type '"
                    + action.getType() + "'");
        }
    }

    /** The object must be the action's target (kind, namespace and name; the apiVersion is not identity). */
    private static void requireTarget(Action action, Map<String, Object> existing) {
        ObjectRef target = action.getTarget();
        ObjectRef ref = KubeObject.refOf(existing);
        if (!ref.getKind().equals(target.getKind()) || !ref.getNamespace().equals(target.getNamespace())
                || !ref.getName().equals(target.getName())) {
            throw new MissingObjectException(action.identity(), target);
        }
    }

    private static Change apply(Apply apply, Map<String, Object> existing) {
        if (existing == null) {
            Map<String, Object> desired = Json.copyMap(apply.getObject(), "apply.object");
            Map<String, Object> metadata = Json.mapAt(desired, "metadata");
            if (metadata != null) metadata.keySet().removeAll(KubeObject.SERVER_FIELDS);
            return new Change(Outcome.CREATED, desired);
        }
        Map<String, Object> merged = Json.copyMap(existing, "object");
        mergeApplied(merged, apply.getObject(), "");
        return replace(apply, existing, merged);
    }

    /**
     * Server-side apply, simplified: maps merge key by key, every other value (lists included)
     * replaces the one there, a null removes the field, and an empty map adds nothing. The fields
     * the cluster owns are skipped.
     */
    @SuppressWarnings("unchecked")
    private static void mergeApplied(Map<String, Object> into, Map<String, ?> given, String path) {
        given.forEach((key, value) -> {
            String at = path.isEmpty() ? key : path + "." + key;
            if (path.equals("metadata") && KubeObject.SERVER_FIELDS.contains(key)) {
                return;
            }
            if (value == null) {
                into.remove(key);
            } else if (value instanceof Map<?, ?> map && into.get(key) instanceof Map<?, ?> there) {
                mergeApplied((Map<String, Object>) there, (Map<String, ?>) map, at);
            } else if (value instanceof Map<?, ?> map && map.isEmpty()) {
                // nothing to set
            } else {
                into.put(key, Json.copy(value, "apply.object." + at));
            }
        });
    }

    private static Change mergePatch(MergePatch action, Map<String, Object> existing) {
        Map<String, Object> patched = Json.copyMap(existing, "object");
        mergePatch(patched, Json.copyMap(action.getPatch(), "mergePatch.patch"), action.getPatch());
        return replace(action, existing, patched);
    }

    /** RFC 7386: a null removes, a map merges into a map (or replaces a non-map), anything else replaces. */
    @SuppressWarnings("unchecked")
    private static void mergePatch(Map<String, Object> into, Map<String, Object> patchWithoutNulls, Map<String, ?> patch) {
        patch.forEach((key, value) -> {
            if (value == null) {
                into.remove(key);
            } else if (value instanceof Map<?, ?> map) {
                boolean wasMap = into.get(key) instanceof Map<?, ?>;
                Map<String, Object> target = wasMap ? (Map<String, Object>) into.get(key) : new LinkedHashMap<>();
                mergePatch(target, (Map<String, Object>) patchWithoutNulls.get(key), (Map<String, ?>) map);
                if (wasMap || into.get(key) != null || !target.isEmpty()) {
                    into.put(key, target);
                } // else only removals below a field that is not there: nothing to add
            } else {
                into.put(key, patchWithoutNulls.get(key));
            }
        });
    }

    /** Copies the object's top level, {@code status} and the maps and lists on the path; shares the rest. */
    private static Change setStatus(SetStatus action, Map<String, Object> existing) {
        Map<String, Object> changed = Json.shallowCopy(existing);
        Map<String, Object> status = Json.childCopy(changed, "status", action.getTarget() + " status");
        Object value = Json.copy(action.getValue(), "setStatus.value");
        Json.write(status, ObjectPath.steps(action.getPath()), value, action.identity());
        if (status.isEmpty() && existing.get("status") == null) changed.remove("status");
        // Written below status only: the metadata is existing's own, identity and server fields as they were.
        return compared(existing, changed);
    }

    @SuppressWarnings("unchecked")
    private static Change setCondition(SetCondition action, Map<String, Object> existing, Instant now) {
        // The top level, status, the list of conditions and the one condition written are copied.
        Map<String, Object> changed = Json.shallowCopy(existing);
        Map<String, Object> status = Json.childCopy(changed, "status", action.getTarget() + " status");
        Object conditionsValue = status.get("conditions");
        if (conditionsValue != null && !(conditionsValue instanceof List<?>)) {
            throw new IllegalStateException(action.identity() + ": status.conditions of " + action.getTarget()
                    + " is a " + conditionsValue.getClass().getSimpleName() + ", not a list");
        }
        List<Object> conditions = conditionsValue == null ? new ArrayList<>() : new ArrayList<>((List<Object>) conditionsValue);
        status.put("conditions", conditions);
        String at = Objects.requireNonNull(now, "now").toString();
        Map<String, Object> condition = null;
        for (int i = 0; i < conditions.size() && condition == null; i++) {
            if (conditions.get(i) instanceof Map<?, ?> map && action.getConditionType().equals(map.get("type"))) {
                condition = Json.shallowCopy(map);
                conditions.set(i, condition);
            }
        }
        if (condition == null) {
            condition = new LinkedHashMap<>();
            condition.put("type", action.getConditionType());
            condition.put("status", action.getStatus());
            condition.put("reason", action.getReason());
            condition.put("message", action.getMessage());
            condition.put("lastTransitionTime", at);
            conditions.add(condition);
        } else {
            if (!action.getStatus().equals(condition.get("status"))) {
                condition.put("lastTransitionTime", at);
            }
            condition.put("status", action.getStatus());
            condition.put("reason", action.getReason());
            condition.put("message", action.getMessage());
        }
        // Written below status only: the metadata is existing's own, identity and server fields as they were.
        return compared(existing, changed);
    }

    /** The finalizer comes off {@code metadata.finalizers} (the list goes when it is empty). */
    private static Change finishCleanup(FinishCleanup action, Map<String, Object> existing) {
        if (action.getFinalizer() == null) {
            throw new IllegalArgumentException(action.identity() + ": the engine names the finalizer before it is applied");
        }
        Map<String, Object> changed = Json.shallowCopy(existing);
        Map<String, Object> metadata = Json.childCopy(changed, "metadata", action.getTarget() + " metadata");
        if (metadata.get("finalizers") instanceof List<?> finalizers) {
            List<Object> kept = new java.util.ArrayList<>(finalizers);
            kept.remove(action.getFinalizer());
            if (kept.isEmpty()) metadata.remove("finalizers"); else metadata.put("finalizers", kept);
        }
        return replace(action, existing, changed);
    }

    private static Change setMetadataEntry(SetMetadataEntry action, Map<String, Object> existing) {
        Map<String, Object> changed = Json.shallowCopy(existing);
        Map<String, Object> metadata = Json.childCopy(changed, "metadata", action.getTarget() + " metadata");
        Map<String, Object> entries = Json.childCopy(metadata, action.getField(), action.getTarget() + " metadata." + action.getField());
        if (action.getValue() == null) entries.remove(action.getKey()); else entries.put(action.getKey(), action.getValue());
        if (entries.isEmpty()) metadata.remove(action.getField());
        return replace(action, existing, changed);
    }

    /**
     * {@code changed} when it differs from {@code existing}: UPDATED, else NONE with {@code existing}.
     * {@code changed}'s metadata must be its own (copied), as the server fields are put back in it.
     */
    private static Change replace(Action action, Map<String, Object> existing, Map<String, Object> changed) {
        keepIdentityAndServerFields(action, existing, changed);
        return compared(existing, changed);
    }

    private static Change compared(Map<String, Object> existing, Map<String, Object> changed) {
        if (Json.same(changed, existing)) return new Change(Outcome.NONE, existing);
        return new Change(Outcome.UPDATED, changed);
    }

    private static void keepIdentityAndServerFields(Action action, Map<String, Object> existing, Map<String, Object> changed) {
        ObjectRef before = KubeObject.refOf(existing);
        ObjectRef after;
        try {
            after = KubeObject.refOf(changed);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(action.identity() + " would remove the identity of " + before, e);
        }
        if (!after.getKind().equals(before.getKind()) || !after.getNamespace().equals(before.getNamespace())
                || !after.getName().equals(before.getName())) {
            throw new IllegalArgumentException(action.identity() + " would change the identity of " + before
                    + " (kind, metadata.name and metadata.namespace cannot change)");
        }
        Map<String, Object> was = Json.mapAt(existing, "metadata");
        Map<String, Object> metadata = Json.child(changed, "metadata", "metadata");
        for (String field : KubeObject.SERVER_FIELDS) {
            Object value = was.get(field);
            if (value == null) metadata.remove(field); else metadata.put(field, value);
        }
    }
}
