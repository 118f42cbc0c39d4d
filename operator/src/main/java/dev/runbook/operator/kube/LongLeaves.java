package dev.runbook.operator.kube;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where a tree of maps and lists holds a {@link Long}, so that a copy read back from JSON (where a small
 * whole number comes back an {@link Integer}) can be given the same types again. The informers' objects
 * need it: fabric8 reads a watch event of a kind it knows as its typed model (a {@code Pod}) and converts
 * that to a generic resource, and the int64 fields of the model ({@code terminationGracePeriodSeconds},
 * {@code observedGeneration}, {@code tolerationSeconds}...) become {@code Long} there, where the list at
 * start gives {@code Integer} for the same field. A compact cached object keeps these paths beside its JSON
 * ({@link CompactResource}); without them every Pod and StatefulSet a watch had updated read back
 * different, and was cached whole (four to six times the bytes).
 */
final class LongLeaves {
    private LongLeaves() {}

    /** The paths (map keys and list indexes, from {@code tree}) of its {@code Long} leaves; null when it has none. */
    static Object[][] of(Object tree) {
        List<Object[]> paths = new ArrayList<>();
        collect(tree, new ArrayList<>(), paths);
        return paths.isEmpty() ? null : paths.toArray(new Object[0][]);
    }

    private static void collect(Object value, List<Object> path, List<Object[]> paths) {
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                path.add(entry.getKey());
                collect(entry.getValue(), path, paths);
                path.remove(path.size() - 1);
            }
        } else if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                path.add(i);
                collect(list.get(i), path, paths);
                path.remove(path.size() - 1);
            }
        } else if (value instanceof Long) {
            paths.add(path.toArray());
        }
    }

    /**
     * {@code tree} (maps and lists as Jackson reads them: modifiable) with the whole number at each of
     * {@code paths} made a {@code Long}, in place. A path that leads nowhere, or to anything but a whole
     * number, is left alone: the caller compares the result with the original before trusting it.
     */
    @SuppressWarnings("unchecked")
    static <T> T restore(T tree, Object[][] paths) {
        if (paths == null) return tree;
        for (Object[] path : paths) {
            Object parent = tree;
            for (int i = 0; i < path.length - 1 && parent != null; i++) parent = step(parent, path[i]);
            Object last = path[path.length - 1];
            if (parent instanceof Map<?, ?> map && map.get(last) instanceof Integer number) {
                ((Map<Object, Object>) map).put(last, number.longValue());
            } else if (parent instanceof List<?> list && last instanceof Integer index && index < list.size()
                    && list.get(index) instanceof Integer number) {
                ((List<Object>) list).set(index, number.longValue());
            }
        }
        return tree;
    }

    private static Object step(Object parent, Object key) {
        if (parent instanceof Map<?, ?> map) return map.get(key);
        if (parent instanceof List<?> list && key instanceof Integer index && index < list.size()) return list.get(index);
        return null;
    }
}
