package dev.runbook.rules.action;

import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Values;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Something a rule wants to be so. Actions are data: a rule inserts them into working memory, the
 * engine collects and checks them, and the operator applies them idempotently.
 *
 * <p>Every action has one YAML form ({@link #toMap()}), which {@code runbook plan} prints and
 * scenario tests match; two actions with the same form are the same action ({@link #sameAs}), and
 * the engine merges them into one, keeping every rule that asked for it. Its {@link #identity()}
 * names the target and the intent without the value: two different actions with the same identity
 * disagree about the same thing.
 */
public abstract class Action {
    private final ObjectRef target;
    // Derived once: an action is immutable, and the engine asks for these several times per cycle
    // (and across cycles, for an action a template cache hands out again). Racy but benign: each
    // value is immutable and the same whichever thread computes it.
    private Map<String, Object> form;
    private int formHash;
    private List<FieldWrite> fieldWrites;
    private String identity;

    protected Action(ObjectRef target) {
        this.target = target;
    }

    /** The word used for this action in YAML: apply, delete, setStatus, ... */
    public abstract String getType();

    /** The object this action is about; null only for a template not yet rendered. */
    public ObjectRef getTarget() { return target; }

    /** Target and intent, without the value: e.g. {@code setCondition PostgresCluster db/main Ready}. */
    public String identity() {
        String identity = this.identity;
        if (identity == null) {
            String key = intentKey();
            identity = getType() + " " + target + (key.isEmpty() ? "" : " " + key);
            this.identity = identity;
        }
        return identity;
    }

    /** What, on the target, this action is about; empty when the target alone says it. */
    protected String intentKey() { return ""; }

    /** The fields this action writes, for the conflict check. Empty for actions that write nothing. */
    public abstract List<FieldWrite> writes();

    /** {@link #writes()}, computed once. */
    public final List<FieldWrite> fieldWrites() {
        List<FieldWrite> writes = fieldWrites;
        if (writes == null) {
            writes = List.copyOf(writes());
            fieldWrites = writes;
        }
        return writes;
    }

    /** The hash of {@link #toMap()}, computed once: the engine merges equal actions by their form. */
    public final int formHash() {
        int hash = formHash;
        if (hash == 0) {
            hash = toMap().hashCode();
            formHash = hash == 0 ? 1 : hash;
        }
        return formHash;
    }

    /** The action's fields below {@code action} and {@code target} in its YAML form. */
    protected abstract void describe(Map<String, Object> into);

    /** The YAML form: {@code action}, {@code target}, then the action's own fields. */
    public final Map<String, Object> toMap() {
        if (form == null) {
            form = Values.frozenOwned(buildForm());
        }
        return form;
    }

    private Map<String, Object> buildForm() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("action", getType());
        if (target != null) {
            map.put("target", target.toMap());
        }
        describe(map);
        return map;
    }

    /**
     * Whether {@code other} asks for exactly the same thing. Deliberately not {@code equals}: two rules
     * that insert the same action logically must each stay visible as a reason for it, and Drools' truth
     * maintenance would fold equal objects into one.
     */
    public final boolean sameAs(Action other) {
        return other != null && toMap().equals(other.toMap());
    }

    @Override
    public String toString() { return identity(); }
}
