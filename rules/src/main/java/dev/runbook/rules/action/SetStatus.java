package dev.runbook.rules.action;

import dev.runbook.rules.fact.ObjectPath;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Values;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One field of the target's status should have this value (through the status subresource). */
public final class SetStatus extends Action {
    private final String path;
    /** The path's steps, split once: the plan check asks for the writes of every action of every cycle. */
    private final List<String> steps;
    private final Object value;

    /** @param path relative to {@code status}, e.g. {@code phase} or {@code backup.lastName} */
    public SetStatus(ObjectRef target, String path, Object value) {
        super(target);
        this.steps = List.copyOf(ObjectPath.steps(path));
        this.path = ObjectPath.join(steps);
        this.value = Values.frozen(Values.thawed(value));
    }

    @Override public String getType() { return "setStatus"; }
    public String getPath() { return path; }
    public Object getValue() { return value; }

    @Override
    protected String intentKey() { return path; }

    @Override
    public List<FieldWrite> writes() {
        List<String> full = new ArrayList<>(steps.size() + 1);
        full.add("status");
        full.addAll(steps);
        return FieldWrite.leaves(getTarget(), full, value);
    }

    @Override
    protected void describe(Map<String, Object> into) {
        into.put("path", path);
        into.put("value", value);
    }
}
