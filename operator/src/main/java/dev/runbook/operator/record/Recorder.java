package dev.runbook.operator.record;

import dev.runbook.engine.apply.ActionEffect;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.operator.act.CachedObjects;
import dev.runbook.operator.act.PrimaryStatus;
import dev.runbook.operator.error.ConflictRetry;
import dev.runbook.operator.error.ErrorMapping;
import dev.runbook.operator.error.Reasons;
import dev.runbook.operator.kube.EventWriter;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.kube.Maps;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.SetCondition;
import dev.runbook.rules.action.SetStatus;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Primary;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Records a cycle on its primary: the status fields the operator owns, with the status actions the
 * plan asked of the primary, written through the status subresource in one merge patch and only when
 * they changed (at most one status write per cycle), and the events that say what happened.
 *
 * <p>Status: {@code observedGeneration} (the generation the cycle decided on), {@code bundleVersion}
 * (the content hash of the bundle), {@code lastCycle} ({@link CycleSummary}) and the condition
 * {@code RunbookApplied} ({@link RunbookCondition}), merged by type with the bundle's own conditions;
 * its {@code lastTransitionTime} moves only when its status does. A settled cycle on a primary whose
 * record says the plan was applied leaves {@code lastCycle} and {@code RunbookApplied} as they are
 * ({@link #tellsSomethingNew}), so {@code lastCycle} is the last cycle that changed something, failed,
 * was refused or only planned. Each condition the cycle sets carries the
 * generation it observed ({@link ConditionGenerations}), where the CRD keeps that field.
 *
 * <p>Events, on the primary: one per cycle that changed something besides the primary's own status
 * ({@link ChangesEvent}: the actions that changed something and the rules that asked for them); a Warning with the failure's
 * reason when the condition turns to a failure or the failure changes; {@code Paused} when a pause
 * starts; {@code PlanObserved} in observe mode when the plan differs from the one recorded.
 */
public final class Recorder {
    private final KubeApi api;
    private final EventWriter events;
    private final String fieldManager;
    private final ConflictRetry conflicts;
    private final ConditionGenerations conditionGenerations;

    /** @param kind the primary kind, named in what {@link ConditionGenerations} logs */
    public Recorder(KubeApi api, EventWriter events, String fieldManager, String kind) {
        this(api, events, fieldManager, kind, ConflictRetry.DEFAULT);
    }

    public Recorder(KubeApi api, EventWriter events, String fieldManager, String kind, ConflictRetry conflicts) {
        this.api = api;
        this.events = events;
        this.fieldManager = fieldManager;
        this.conflicts = conflicts;
        this.conditionGenerations = new ConditionGenerations(kind);
    }

    /** Records the cycle, reading the primary from the API server. */
    public void record(Primary primary, CycleReport report, Instant now) {
        record(primary, report, CachedObjects.none(), List.of(), now);
    }

    /**
     * Records the cycle. The status is compared with the primary as {@code cached} has it (the
     * informer's copy, or what this cycle's own writes returned): unchanged, nothing is sent.
     *
     * @param statusActions the plan's status actions on the primary that the act phase left to this
     *                      write ({@link PrimaryStatus}): the cycle's status goes out in one patch
     */
    public void record(Primary primary, CycleReport report, CachedObjects cached, List<PlannedAction> statusActions,
                       Instant now) {
        Optional<Map<String, Object>> before = writeStatus(primary, report, cached, statusActions, now);
        if (before.isEmpty()) return; // the primary is gone: nothing to record on
        recordEvents(primary, report, before.get(), now);
    }

    /** Writes the status when it changed; returns the primary as it was before, empty when it is gone. */
    private Optional<Map<String, Object>> writeStatus(Primary primary, CycleReport report, CachedObjects cached,
                                                      List<PlannedAction> statusActions, Instant now) {
        ObjectRef ref = primary.getRef();
        RunbookCondition condition = RunbookCondition.of(report);
        return conflicts.run(() -> {
            // The cached primary first; after a conflict the cache is known stale and it is read afresh.
            Optional<Map<String, Object>> known = cached.get(ref);
            Optional<Map<String, Object>> current = known.isPresent() ? known : api.get(ref);
            if (current.isEmpty()) return current;
            Map<String, Object> desired = conditionGenerations.stamp(
                    desiredStatus(PrimaryStatus.applied(statusActions, current.get(), now), primary, report,
                            tellsSomethingNew(report, current.get()) ? Optional.of(condition) : Optional.empty(), now),
                    conditionsSet(statusActions), primary.getGeneration());
            Map<String, Object> diff = Maps.diff(Maps.map(current.get(), "status"), desired);
            if (diff.isEmpty()) return current;
            Map<String, Object> patch = new LinkedHashMap<>();
            patch.put("metadata", Map.of("resourceVersion", Maps.resourceVersion(current.get())));
            patch.put("status", diff);
            try {
                Map<String, Object> stored = api.mergePatchStatus(ref, patch, fieldManager);
                conditionGenerations.learn(diff, stored);
                // Into the primary informer too: the next cycle starts from this write even before the watch shows it.
                cached.written(ref, current.get(), stored);
                return current;
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404 && known.isPresent()) return Optional.empty(); // gone since it was cached
                if (e.getCode() == ErrorMapping.CONFLICT) cached.stale(ref);
                throw e;
            }
        }, conflicts -> "recording the cycle: " + ref + " kept changing");
    }

    /** The types of the conditions this cycle sets on its primary: the plan's own and {@code RunbookApplied}. */
    private static Set<String> conditionsSet(List<PlannedAction> statusActions) {
        Set<String> types = new HashSet<>();
        types.add(RunbookCondition.TYPE);
        for (PlannedAction planned : statusActions) {
            if (planned.action() instanceof SetCondition set) types.add(set.getConditionType());
        }
        return types;
    }

    /**
     * Whether the cycle's {@code lastCycle} and {@code RunbookApplied} are worth a write: every cycle but a
     * settled one ({@link CycleReport#settled()}) on a primary whose record already says the plan was
     * applied. That one only found in place what an earlier cycle wrote, and saying so cost a status
     * write after every changing cycle (docs/operations.md#what-the-operator-writes-on-each-resource).
     */
    static boolean tellsSomethingNew(CycleReport report, Map<String, Object> current) {
        if (!report.settled()) return true;
        RunbookCondition recorded = previousCondition(current);
        return recorded == null || !recorded.status().equals("True") || !recorded.reason().equals(Reasons.APPLIED)
                || Maps.map(Maps.map(current, "status"), "lastCycle").isEmpty();
    }

    /**
     * The status the primary should have after this cycle, computed by the engine's own applier.
     *
     * @param current   the primary with the plan's own status actions applied
     * @param condition the cycle's {@code RunbookApplied}, written with its {@code lastCycle}; empty to
     *                  leave both as they are ({@link #tellsSomethingNew})
     */
    static Map<String, Object> desiredStatus(Map<String, Object> current, Primary primary, CycleReport report,
                                             Optional<RunbookCondition> condition, Instant now) {
        ObjectRef ref = Maps.refOf(current);
        List<Action> actions = new ArrayList<>(List.of(new SetStatus(ref, "observedGeneration", primary.getGeneration()),
                new SetStatus(ref, "bundleVersion", report.bundleVersion())));
        condition.ifPresent(applied -> actions.addAll(List.of(new SetStatus(ref, "lastCycle", CycleSummary.of(report)),
                new SetCondition(ref, RunbookCondition.TYPE, applied.status(), applied.reason(), applied.message()))));
        Map<String, Object> object = current;
        for (Action action : actions) {
            object = ActionEffect.on(object, action, now).object();
        }
        return Maps.map(object, "status");
    }

    private void recordEvents(Primary primary, CycleReport report, Map<String, Object> before, Instant now) {
        ObjectRef ref = primary.getRef();
        String uid = primary.getUid();
        if (report.acting()) {
            // The cycle's id names its decision in the decision history (runbook why --history, docs/why.md).
            ChangesEvent.of(report.applied(), ref).ifPresent(changes -> events.record(ref, uid, "Normal", changes.reason(),
                    changes.message(), EventWriter.COMPONENT, Map.of(EventWriter.CYCLE_ANNOTATION, report.cycleId()), now));
        }
        RunbookCondition condition = RunbookCondition.of(report);
        RunbookCondition previous = previousCondition(before);
        if (!condition.equals(previous)) {
            if (condition.isWarning()) {
                events.record(ref, uid, "Warning", condition.reason(), condition.message(), now);
            } else if (condition.reason().equals(Reasons.PAUSED)) {
                events.record(ref, uid, "Normal", Reasons.PAUSED, condition.message(), now);
            }
        }
        if (!report.paused() && !report.acting() && report.failure() == null
                && !Objects.equals(plannedActions(Maps.map(Maps.map(before, "status"), "lastCycle")),
                plannedActions(CycleSummary.of(report)))) {
            List<String> planned = report.decision().actions().stream().map(p -> p.action().identity()).toList();
            events.record(ref, uid, "Normal", "PlanObserved", "observe mode, nothing applied; the plan has "
                    + planned.size() + " action" + (planned.size() == 1 ? "" : "s")
                    + (planned.isEmpty() ? "" : ": " + String.join("; ", planned)), now);
        }
    }

    private static List<Object> plannedActions(Map<String, Object> lastCycle) {
        Object actions = lastCycle.get("actions");
        List<Object> identities = new ArrayList<>();
        if (actions instanceof List<?> list) {
            for (Object entry : list) {
                identities.add(entry instanceof Map<?, ?> map ? map.get("action") : entry);
            }
        }
        return identities;
    }

    private static RunbookCondition previousCondition(Map<String, Object> object) {
        Object conditions = Maps.map(object, "status").get("conditions");
        if (!(conditions instanceof List<?> list)) return null;
        for (Object item : list) {
            if (item instanceof Map<?, ?> map && RunbookCondition.TYPE.equals(map.get("type"))) {
                return new RunbookCondition(String.valueOf(map.get("status")), String.valueOf(map.get("reason")),
                        map.get("message") == null ? "" : String.valueOf(map.get("message")));
            }
        }
        return null;
    }
}
