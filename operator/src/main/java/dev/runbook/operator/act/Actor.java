package dev.runbook.operator.act;

import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.engine.apply.ActionEffect;
import dev.runbook.engine.apply.Change;
import dev.runbook.engine.apply.Outcome;
import dev.runbook.operator.error.ActionFailedException;
import dev.runbook.operator.error.ConflictRetry;
import dev.runbook.operator.error.ErrorMapping;
import dev.runbook.operator.kube.EventWriter;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.kube.Maps;
import dev.runbook.operator.kube.MissingNamespaceException;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.Apply;
import dev.runbook.rules.action.ApplyTemplate;
import dev.runbook.rules.action.Delete;
import dev.runbook.rules.action.EmitEvent;
import dev.runbook.rules.action.FinishCleanup;
import dev.runbook.rules.action.MergePatch;
import dev.runbook.rules.action.Requeue;
import dev.runbook.rules.action.SetCondition;
import dev.runbook.rules.action.SetMetadataEntry;
import dev.runbook.rules.action.SetStatus;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Primary;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Applies a checked plan to the cluster through the API server, action by action, each idempotent:
 *
 * <ul>
 *   <li>{@code apply}: server-side apply with the bundle's field manager, with an owner reference to
 *       the primary added to objects in its namespace (and, on a shard member, the member's label);</li>
 *   <li>{@code mergePatch}: a JSON merge patch of the existing object;</li>
 *   <li>{@code delete}: deletes the object when it is there (already gone, or already being deleted,
 *       is not an error);</li>
 *   <li>{@code setStatus}, {@code setCondition}: through the status subresource; {@code label},
 *       {@code annotate}: on the object's metadata. The new state is computed from the object as it
 *       is now by the engine's own {@link ActionEffect} (the code the scenario tests run), and only
 *       the difference is sent, as a merge patch that carries the resourceVersion it was computed
 *       from: a 409 conflict is retried on fresh state ({@link ConflictRetry}). The primary's own status
 *       actions in a plan are the exception: {@link #act} leaves them to the record phase, which writes
 *       the cycle's status once ({@link PrimaryStatus});</li>
 *   <li>{@code finishCleanup}: the bundle's finalizer comes off the primary, as a merge patch;</li>
 *   <li>{@code event}: a Kubernetes Event about the target; {@code requeue}: nothing here.</li>
 * </ul>
 *
 * <p>Each action's outcome compares the object's resourceVersion before and after: CREATED when it
 * was not there, UPDATED when the resourceVersion moved, DELETED, or NONE when nothing changed. The
 * first action that fails stops the plan; the ones before it stay applied.
 */
public final class Actor {
    private final KubeApi api;
    private final EventWriter events;
    private final String fieldManager;
    private final ConflictRetry conflicts;
    private final Map<String, String> ownedLabels;

    public Actor(KubeApi api, EventWriter events, String fieldManager) {
        this(api, events, fieldManager, ConflictRetry.DEFAULT, Map.of());
    }

    public Actor(KubeApi api, EventWriter events, String fieldManager, ConflictRetry conflicts) {
        this(api, events, fieldManager, conflicts, Map.of());
    }

    /**
     * @param ownedLabels labels every applied object that the primary owns carries, from its create on: a
     *                    shard member's {@code runbook.dev/shard} (docs/sharding.md#secondaries); empty when not sharded
     */
    public Actor(KubeApi api, EventWriter events, String fieldManager, ConflictRetry conflicts, Map<String, String> ownedLabels) {
        this.api = api;
        this.events = events;
        this.fieldManager = fieldManager;
        this.conflicts = conflicts;
        this.ownedLabels = Map.copyOf(ownedLabels);
    }

    /** Applies the actions in order, stopping at the first failure, reading every target from the API server. */
    public ActResult act(List<PlannedAction> plan, Primary primary, Instant now) {
        return act(plan, primary, CachedObjects.none(), now);
    }

    /**
     * Applies the actions in order, stopping at the first failure. A target found in {@code cached} is
     * compared with what the action would write, and nothing is sent when they agree; the objects
     * written are added to {@code cached}, so the record phase and later actions see them. The primary's
     * own status actions are not sent here but left to the record phase ({@link PrimaryStatus}), which
     * writes the status once per cycle.
     */
    public ActResult act(List<PlannedAction> plan, Primary primary, CachedObjects cached, Instant now) {
        return act(plan, primary, cached, now, Map.of());
    }

    /**
     * As {@link #act(List, Primary, CachedObjects, Instant)}; the events the rules ask for carry
     * {@code eventAnnotations} (the cycle's id, {@link EventWriter#CYCLE_ANNOTATION}).
     */
    public ActResult act(List<PlannedAction> plan, Primary primary, CachedObjects cached, Instant now,
                         Map<String, String> eventAnnotations) {
        List<AppliedAction> applied = new ArrayList<>();
        PrimaryStatus status = new PrimaryStatus(primary.getRef());
        for (PlannedAction planned : plan) {
            try {
                Outcome outcome = status.takes(planned.action())
                        ? status.add(planned, cached.get(primary.getRef()).orElseGet(() -> existing(primary.getRef())), now)
                        : apply(planned.action(), primary, cached, now, eventAnnotations);
                applied.add(new AppliedAction(planned, outcome));
            } catch (MissingNamespaceException e) {
                return new ActResult(applied, planned, new ActionFailedException(planned.action().identity(), planned.rules(),
                        e.askedFor(planned.rules())), status.actions());
            } catch (RuntimeException e) {
                return new ActResult(applied, planned, new ActionFailedException(planned.action().identity(), planned.rules(), e),
                        status.actions());
            }
        }
        return ActResult.complete(applied, status.actions());
    }

    /** Applies one action, reading its target from the API server. */
    public Outcome apply(Action action, Primary primary, Instant now) {
        return apply(action, primary, CachedObjects.none(), now, Map.of());
    }

    private Outcome apply(Action action, Primary primary, CachedObjects cached, Instant now, Map<String, String> eventAnnotations) {
        Objects.requireNonNull(action, "action");
        if (action instanceof Apply apply) return apply(apply, primary, cached);
        if (action instanceof MergePatch patch) return mergePatch(patch);
        if (action instanceof Delete delete) return delete(delete);
        if (action instanceof SetStatus || action instanceof SetCondition) return computed(action, cached, now, true);
        if (action instanceof SetMetadataEntry || action instanceof FinishCleanup) return computed(action, cached, now, false);
        if (action instanceof EmitEvent event) {
            ObjectRef target = event.getTarget();
            String uid = sameObject(target, primary) ? primary.getUid() : null;
            events.record(target, uid, event.getEventType(), event.getReason(), event.getMessage(), EventWriter.COMPONENT,
                    eventAnnotations, now);
            return Outcome.CREATED;
        }
        if (action instanceof Requeue) return Outcome.NONE;
        if (action instanceof ApplyTemplate) {
            throw new IllegalArgumentException("a template must be rendered by the engine before it is applied");
        }
        throw new IllegalArgumentException("the operator does not know the action type '" + action.getType() + "'");
    }

    private static boolean sameObject(ObjectRef target, Primary primary) {
        return target.getKind().equals(primary.getKind()) && target.getName().equals(primary.getName())
                && target.getNamespace().equals(primary.getNamespace());
    }

    private Outcome apply(Apply apply, Primary primary, CachedObjects cached) {
        Map<String, Object> desired = OwnerReferences.withOwner(apply.getObject(), apply.getTarget(), primary, ownedLabels);
        Optional<Map<String, Object>> known = cached.get(apply.getTarget());
        if (known.isPresent() && (ServerSideApplyCheck.changesNothing(desired, known.get(), fieldManager)
                || holdsOwnedLabelsWrittenByOthers(desired, known.get()))) {
            return Outcome.NONE;
        }
        // Not cached: not there yet when an informer covers its kind and namespace; otherwise ask, to
        // tell CREATED from UPDATED.
        Optional<Map<String, Object>> before = known.isPresent() || cached.covers(apply.getTarget()) ? known
                : api.get(apply.getTarget());
        Map<String, Object> after = api.serverSideApply(desired, fieldManager);
        cached.written(apply.getTarget(), before.orElse(null), after);
        return before.isEmpty() ? Outcome.CREATED : compare(before.get(), after);
    }

    /**
     * Whether the object already is what the apply asks for, except that another manager wrote the owned
     * labels' values (the sharder moving the object to this member: docs/sharding.md#handover-of-secondaries).
     * Taking those labels back would write the same values again: at a takeover, one write for every
     * secondary moved. So when the object holds each owned label's value, and the apply without those
     * labels changes nothing, nothing is sent; a later apply for another reason takes them along.
     */
    private boolean holdsOwnedLabelsWrittenByOthers(Map<String, Object> desired, Map<String, Object> known) {
        if (ownedLabels.isEmpty()) return false;
        if (!(known.get("metadata") instanceof Map<?, ?> metadata) || !(metadata.get("labels") instanceof Map<?, ?> labels)) return false;
        for (Map.Entry<String, String> owned : ownedLabels.entrySet()) {
            if (!owned.getValue().equals(labels.get(owned.getKey()))) return false;
        }
        return ServerSideApplyCheck.changesNothing(withoutOwnedLabels(desired), known, fieldManager);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> withoutOwnedLabels(Map<String, Object> desired) {
        Map<String, Object> metadata = new LinkedHashMap<>((Map<String, Object>) desired.get("metadata"));
        Map<String, Object> labels = new LinkedHashMap<>((Map<String, Object>) metadata.get("labels"));
        ownedLabels.keySet().forEach(labels::remove);
        if (labels.isEmpty()) metadata.remove("labels");
        else metadata.put("labels", labels);
        Map<String, Object> copy = new LinkedHashMap<>(desired);
        copy.put("metadata", metadata);
        return copy;
    }

    private Outcome mergePatch(MergePatch patch) {
        Map<String, Object> before = existing(patch.getTarget());
        Map<String, Object> after = api.mergePatch(patch.getTarget(), Maps.copy(patch.getPatch()), fieldManager);
        return compare(before, after);
    }

    /**
     * Deletes the object the rules decided on: not when it is gone or going, nor when the object of that name is
     * by now another one (another uid: a pod its StatefulSet recreated after the observation the decision came
     * from), which nobody asked to delete.
     */
    private Outcome delete(Delete delete) {
        ObjectRef target = delete.getTarget();
        Optional<Map<String, Object>> before = api.get(target);
        if (before.isEmpty()) return Outcome.NONE;
        Map<String, Object> metadata = Maps.map(before.get(), "metadata");
        if (metadata.get("deletionTimestamp") != null) return Outcome.NONE;
        if (!delete.getObservedUid().isEmpty() && !delete.getObservedUid().equals(metadata.get("uid"))) return Outcome.NONE;
        return api.delete(target) ? Outcome.DELETED : Outcome.NONE;
    }

    /**
     * Status and metadata actions: the engine's {@link ActionEffect} computes the new object from the current one;
     * the difference goes out as a merge patch with the resourceVersion it was computed from.
     */
    private Outcome computed(Action action, CachedObjects cached, Instant now, boolean status) {
        ObjectRef target = action.getTarget();
        return conflicts.run(() -> {
            // The cached object first (when the action is already so, nothing is sent at all); after a
            // conflict the cache is known stale and the object is read afresh.
            Map<String, Object> before = cached.get(target).orElseGet(() -> existing(target));
            Map<String, Object> desired = compute(action, before, now);
            Map<String, Object> patch = status
                    ? section(before, desired, "status")
                    : metadataPatch(before, desired);
            if (patch.isEmpty()) return Outcome.NONE;
            Map<String, Object> metadata = new LinkedHashMap<>(Maps.map(patch, "metadata"));
            metadata.put("resourceVersion", Maps.resourceVersion(before));
            patch.put("metadata", metadata);
            try {
                Map<String, Object> after = status
                        ? api.mergePatchStatus(target, patch, fieldManager)
                        : api.mergePatch(target, patch, fieldManager);
                cached.written(target, before, after);
                return compare(before, after);
            } catch (KubernetesClientException e) {
                if (e.getCode() == ErrorMapping.CONFLICT) cached.stale(target);
                throw e;
            }
        }, conflicts -> action.identity() + ": " + target + " kept changing (" + conflicts + " conflicts in a row); retrying later");
    }

    /** The object after the action, as the engine's {@link ActionEffect} computes it. */
    static Map<String, Object> compute(Action action, Map<String, Object> current, Instant now) {
        Change change = ActionEffect.on(current, action, now);
        return change.outcome() == Outcome.NONE ? current : change.object();
    }

    private static Map<String, Object> section(Map<String, Object> before, Map<String, Object> after, String key) {
        Map<String, Object> diff = Maps.diff(Maps.map(before, key), Maps.map(after, key));
        Map<String, Object> patch = new LinkedHashMap<>();
        if (!diff.isEmpty()) patch.put(key, diff);
        return patch;
    }

    private static Map<String, Object> metadataPatch(Map<String, Object> before, Map<String, Object> after) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        for (String key : List.of("labels", "annotations")) {
            Map<String, Object> diff = Maps.diff(Maps.map(Maps.map(before, "metadata"), key),
                    Maps.map(Maps.map(after, "metadata"), key));
            if (!diff.isEmpty()) metadata.put(key, diff);
        }
        // A merge patch replaces a list whole; the resourceVersion sent with it makes that safe.
        Object finalizers = Maps.map(after, "metadata").get("finalizers");
        if (!Objects.equals(Maps.map(before, "metadata").get("finalizers"), finalizers)) {
            metadata.put("finalizers", finalizers == null ? List.of() : finalizers);
        }
        Map<String, Object> patch = new LinkedHashMap<>();
        if (!metadata.isEmpty()) patch.put("metadata", metadata);
        return patch;
    }

    private Map<String, Object> existing(ObjectRef target) {
        return api.get(target).orElseThrow(() -> new KubernetesClientException(
                target + " does not exist: the action needs an existing object", 404, null));
    }

    private static Outcome compare(Map<String, Object> before, Map<String, Object> after) {
        return Objects.equals(Maps.resourceVersion(before), Maps.resourceVersion(after)) ? Outcome.NONE : Outcome.UPDATED;
    }
}
