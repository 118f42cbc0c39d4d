package dev.runbook.operator.isolation;

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

import java.time.Duration;

/**
 * Actions across the process boundary: each as its type word, its target and its own fields, read
 * back through the action's public constructor, which checks them as it checks a rule's. A worker can
 * send no action the vocabulary does not have, and none a rule could not have built.
 */
final class ActionWire {
    private ActionWire() {}

    static void write(Wire.Out out, Action action) {
        out.writeString(action.getType());
        ObjectRef target = action.getTarget();
        out.writeBoolean(target != null);
        if (target != null) {
            out.writeString(target.getApiVersion()).writeString(target.getKind()).writeString(target.getNamespace())
                    .writeString(target.getName());
        }
        if (action instanceof Apply apply) {
            out.writeValue(apply.getObject()).writeString(apply.getTemplate());
        } else if (action instanceof ApplyTemplate template) {
            out.writeString(template.getTemplate()).writeValue(template.getVars());
        } else if (action instanceof EmitEvent event) {
            out.writeString(event.getEventType()).writeString(event.getReason()).writeString(event.getMessage());
        } else if (action instanceof FinishCleanup cleanup) {
            out.writeString(cleanup.getFinalizer());
        } else if (action instanceof MergePatch patch) {
            out.writeValue(patch.getPatch());
        } else if (action instanceof Requeue requeue) {
            out.writeLong(requeue.getAfter().getSeconds()).writeInt(requeue.getAfter().getNano());
        } else if (action instanceof SetCondition condition) {
            out.writeString(condition.getConditionType()).writeString(condition.getStatus())
                    .writeString(condition.getReason()).writeString(condition.getMessage());
        } else if (action instanceof SetMetadataEntry entry) {
            out.writeString(entry.getKey()).writeString(entry.getValue());
        } else if (action instanceof SetStatus status) {
            out.writeString(status.getPath()).writeValue(status.getValue());
        } else if (action instanceof Delete delete) {
            out.writeString(delete.getObservedUid());
        } else {
            throw new IllegalArgumentException("a " + action.getClass().getName() + " is not an action of the vocabulary");
        }
    }

    /** @throws Wire.WireException for anything but an action of the vocabulary with valid fields */
    static Action read(Wire.In in) {
        String type = in.readText("an action's type");
        try {
            ObjectRef target = in.readBoolean()
                    ? new ObjectRef(in.readString(), in.readString(), in.readString(), in.readString()) : null;
            return switch (type) {
                case "apply" -> new Apply(in.readMap(), in.readString());
                case "applyTemplate" -> new ApplyTemplate(in.readText("a template"), in.readMap());
                case "delete" -> new Delete(target, in.readString());
                case "event" -> new EmitEvent(target, in.readString(), in.readString(), in.readString());
                case "finishCleanup" -> new FinishCleanup(target, in.readString());
                case "mergePatch" -> new MergePatch(target, in.readMap());
                case "requeue" -> new Requeue(target, Duration.ofSeconds(in.readLong(), in.readInt()));
                case "setCondition" -> new SetCondition(target, in.readString(), in.readString(), in.readString(), in.readString());
                case "label" -> new SetMetadataEntry(target, SetMetadataEntry.Kind.LABEL, in.readString(), in.readString());
                case "annotate" -> new SetMetadataEntry(target, SetMetadataEntry.Kind.ANNOTATION, in.readString(), in.readString());
                case "setStatus" -> new SetStatus(target, in.readText("a status path"), in.readValue());
                default -> throw new Wire.WireException("'" + type + "' is not an action");
            };
        } catch (IllegalArgumentException | NullPointerException | ArithmeticException e) {
            throw new Wire.WireException("a " + type + " action that no rule could build: " + e.getMessage());
        }
    }
}
