package dev.runbook.engine.simulation;

import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.Apply;
import dev.runbook.rules.action.ApplyTemplate;
import dev.runbook.rules.action.Delete;
import dev.runbook.rules.action.EmitEvent;
import dev.runbook.rules.action.MergePatch;
import dev.runbook.rules.action.Requeue;
import dev.runbook.rules.action.SetCondition;
import dev.runbook.rules.action.SetMetadataEntry;
import dev.runbook.rules.action.SetStatus;
import dev.runbook.rules.fact.ObjectPath;
import dev.runbook.rules.fact.ObjectRef;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Applies the actions of a plan to a {@link Cluster}, each idempotent by construction: an action
 * whose effect is already there changes nothing and reports {@link Outcome#NONE}, so applying the
 * same plan twice changes the cluster once.
 *
 * <p>An action other than {@code apply}, {@code delete}, {@code event} and {@code requeue} whose target
 * does not exist throws {@link MissingObjectException} naming the action and the object, as the
 * Kubernetes API answers 404. Server-managed metadata ({@code uid}, {@code resourceVersion},
 * {@code generation}, {@code creationTimestamp}) cannot be written through actions: values given for
 * them are ignored, and {@code kind}, {@code metadata.name} and {@code metadata.namespace} cannot be
 * changed (nor {@code apiVersion} removed).
 */
public final class ActionApplier {

    /** The component named as the source of the events this applier records. */
    public static final String COMPONENT = "runbook-operator";

    private final Cluster cluster;

    public ActionApplier(Cluster cluster) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
    }

    /**
     * Applies the actions in order and returns one outcome per action. An action that throws stops
     * the plan there: the actions before it stay applied, as with a real API server.
     */
    public List<Outcome> applyAll(List<? extends Action> actions) {
        List<Outcome> outcomes = new ArrayList<>(actions.size());
        for (Action action : actions) outcomes.add(apply(action));
        return outcomes;
    }

    /**
     * Applies one action.
     *
     * @throws MissingObjectException   when a mergePatch, setStatus, setCondition, label or annotate
     *                                  names an object that does not exist
     * @throws IllegalArgumentException for an unrendered applyTemplate, an unknown action, or an action
     *                                  that would change an object's identity
     * @throws IllegalStateException    when the object's shape contradicts the action (e.g.
     *                                  {@code status.conditions} is not a list)
     */
    public Outcome apply(Action action) {
        Objects.requireNonNull(action, "action");
        if (action instanceof Apply apply) return apply(apply);
        if (action instanceof MergePatch patch) return mergePatch(patch);
        if (action instanceof Delete) return cluster.delete(action.getTarget()) ? Outcome.DELETED : Outcome.NONE;
        if (action instanceof SetStatus setStatus) return setStatus(setStatus);
        if (action instanceof SetCondition setCondition) return setCondition(setCondition);
        if (action instanceof EmitEvent event) {
            cluster.recordEvent(event.getTarget(), event.getEventType(), event.getReason(), event.getMessage(), COMPONENT);
            return Outcome.CREATED;
        }
        if (action instanceof Requeue) return Outcome.NONE;
        if (action instanceof SetMetadataEntry entry) return setMetadataEntry(entry);
        if (action instanceof ApplyTemplate) {
            throw new IllegalArgumentException(action.identity()
                    + ": a template must be rendered by the engine before it is applied");
        }
        throw new IllegalArgumentException(action.identity() + ": the simulator does not know the action type '"
                + action.getType() + "'");
    }

    private Outcome apply(Apply apply) {
        Map<String, Object> existing = cluster.get(apply.getTarget()).orElse(null);
        if (existing == null) {
            Map<String, Object> desired = Json.copyMap(apply.getObject(), "apply.object");
            Map<String, Object> metadata = Json.mapAt(desired, "metadata");
            if (metadata != null) metadata.keySet().removeAll(InMemoryCluster.SERVER_FIELDS);
            cluster.put(desired);
            return Outcome.CREATED;
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
            if (path.equals("metadata") && InMemoryCluster.SERVER_FIELDS.contains(key)) {
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

    private Outcome mergePatch(MergePatch action) {
        Map<String, Object> existing = require(action);
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

    private Outcome setStatus(SetStatus action) {
        Map<String, Object> existing = require(action);
        Map<String, Object> changed = Json.copyMap(existing, "object");
        Map<String, Object> status = Json.child(changed, "status", action.getTarget() + " status");
        Object value = Json.copy(action.getValue(), "setStatus.value");
        write(status, ObjectPath.steps(action.getPath()), value, action.identity());
        if (status.isEmpty() && !existing.containsKey("status")) changed.remove("status");
        return replace(action, existing, changed);
    }

    /** Writes {@code value} at {@code steps} below {@code root}, creating maps on the way; null removes. */
    @SuppressWarnings("unchecked")
    static void write(Map<String, Object> root, List<String> steps, Object value, String what) {
        Object level = root;
        for (int i = 0; i < steps.size(); i++) {
            String step = steps.get(i);
            boolean last = i == steps.size() - 1;
            if (step.startsWith("[")) {
                int index = Integer.parseInt(step.substring(1, step.length() - 1).trim());
                if (!(level instanceof List<?> list) || index < 0 || index >= list.size()) {
                    throw new IllegalStateException(what + ": there is no element " + step + " to write");
                }
                List<Object> items = (List<Object>) list;
                if (last) {
                    if (value == null) items.remove(index); else items.set(index, value);
                    return;
                }
                if (items.get(index) == null) {
                    if (value == null) return;
                    items.set(index, new LinkedHashMap<String, Object>());
                }
                level = items.get(index);
            } else {
                if (!(level instanceof Map<?, ?> map)) {
                    throw new IllegalStateException(what + ": cannot write '" + step + "' inside a "
                            + (level == null ? "null" : level.getClass().getSimpleName()));
                }
                Map<String, Object> fields = (Map<String, Object>) map;
                if (last) {
                    if (value == null) fields.remove(step); else fields.put(step, value);
                    return;
                }
                Object next = fields.get(step);
                if (next == null && value == null) return; // removing below a field that is not there
                if (next == null && !steps.get(i + 1).startsWith("[")) {
                    next = new LinkedHashMap<String, Object>();
                    fields.put(step, next);
                }
                level = next;
            }
        }
    }

    @SuppressWarnings("unchecked")
    private Outcome setCondition(SetCondition action) {
        Map<String, Object> existing = require(action);
        Map<String, Object> changed = Json.copyMap(existing, "object");
        Map<String, Object> status = Json.child(changed, "status", action.getTarget() + " status");
        Object conditionsValue = status.get("conditions");
        if (conditionsValue != null && !(conditionsValue instanceof List<?>)) {
            throw new IllegalStateException(action.identity() + ": status.conditions of " + action.getTarget()
                    + " is a " + conditionsValue.getClass().getSimpleName() + ", not a list");
        }
        List<Object> conditions = conditionsValue == null ? new ArrayList<>() : (List<Object>) conditionsValue;
        status.put("conditions", conditions);
        String now = cluster.now().toString();
        Map<String, Object> condition = null;
        for (Object item : conditions) {
            if (item instanceof Map<?, ?> map && action.getConditionType().equals(map.get("type"))) {
                condition = (Map<String, Object>) map;
                break;
            }
        }
        if (condition == null) {
            condition = new LinkedHashMap<>();
            condition.put("type", action.getConditionType());
            condition.put("status", action.getStatus());
            condition.put("reason", action.getReason());
            condition.put("message", action.getMessage());
            condition.put("lastTransitionTime", now);
            conditions.add(condition);
        } else {
            if (!action.getStatus().equals(condition.get("status"))) {
                condition.put("lastTransitionTime", now);
            }
            condition.put("status", action.getStatus());
            condition.put("reason", action.getReason());
            condition.put("message", action.getMessage());
        }
        return replace(action, existing, changed);
    }

    private Outcome setMetadataEntry(SetMetadataEntry action) {
        Map<String, Object> existing = require(action);
        Map<String, Object> changed = Json.copyMap(existing, "object");
        Map<String, Object> metadata = Json.child(changed, "metadata", action.getTarget() + " metadata");
        Map<String, Object> entries = Json.child(metadata, action.getField(), action.getTarget() + " metadata." + action.getField());
        if (action.getValue() == null) entries.remove(action.getKey()); else entries.put(action.getKey(), action.getValue());
        if (entries.isEmpty()) metadata.remove(action.getField());
        return replace(action, existing, changed);
    }

    private Map<String, Object> require(Action action) {
        return cluster.get(action.getTarget())
                .orElseThrow(() -> new MissingObjectException(action.identity(), action.getTarget()));
    }

    /** Puts {@code changed} when it differs from {@code existing}: UPDATED, else NONE. */
    private Outcome replace(Action action, Map<String, Object> existing, Map<String, Object> changed) {
        keepIdentityAndServerFields(action, existing, changed);
        if (Json.same(changed, existing)) return Outcome.NONE;
        cluster.put(changed);
        return Outcome.UPDATED;
    }

    private static void keepIdentityAndServerFields(Action action, Map<String, Object> existing, Map<String, Object> changed) {
        ObjectRef before = InMemoryCluster.refOf(existing);
        ObjectRef after;
        try {
            after = InMemoryCluster.refOf(changed);
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
        for (String field : InMemoryCluster.SERVER_FIELDS) {
            Object value = was.get(field);
            if (value == null) metadata.remove(field); else metadata.put(field, value);
        }
    }
}
