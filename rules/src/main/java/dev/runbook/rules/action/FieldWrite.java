package dev.runbook.rules.action;

import dev.runbook.rules.fact.ObjectRef;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One field of one object that an action sets, removes or deletes. Two actions conflict when they
 * write the same field (or a field and one inside it) of the same object with different values.
 * Paths are lists of keys, since label keys such as {@code app.kubernetes.io/name} contain dots.
 */
public record FieldWrite(ObjectRef target, List<String> path, Object value) {

    /** The marker value of a whole-object delete. */
    public static final Object DELETED = new Object() {
        @Override public String toString() { return "<deleted>"; }
    };

    public FieldWrite {
        path = List.copyOf(path);
    }

    /** One write per leaf of {@code value} under {@code prefix}: maps are walked, lists are leaves. */
    public static List<FieldWrite> leaves(ObjectRef target, List<String> prefix, Object value) {
        List<FieldWrite> writes = new ArrayList<>();
        collect(target, new ArrayList<>(prefix), value, writes);
        return writes;
    }

    private static void collect(ObjectRef target, List<String> path, Object value, List<FieldWrite> into) {
        if (value instanceof Map<?, ?> map && !map.isEmpty()) {
            map.forEach((k, v) -> {
                List<String> child = new ArrayList<>(path);
                child.add(String.valueOf(k));
                collect(target, child, v, into);
            });
        } else {
            into.add(new FieldWrite(target, path, value));
        }
    }

    /** Whether this write and {@code other} touch the same field of the same object, disagreeing. */
    public boolean conflictsWith(FieldWrite other) {
        if (!target.equals(other.target)) return false;
        int common = Math.min(path.size(), other.path.size());
        if (!path.subList(0, common).equals(other.path.subList(0, common))) return false;
        if (path.size() != other.path.size()) return true;
        return !Objects.equals(value, other.value);
    }

    public String describePath() {
        return path.isEmpty() ? "(the whole object)" : String.join(".", path);
    }
}
