package dev.runbook.rules.fact;

import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The maps and lists {@link Values#frozen} makes: unmodifiable views whose every value is frozen
 * too, of a class of their own so that freezing one again costs nothing. An action's object is
 * frozen when the action is made, again when its YAML form is built and again when the recommended
 * labels are added; without this, each of those copied the whole object (a tenth of a cycle).
 * Being deeply immutable, each keeps its hash once computed (the render cache and the plan's
 * merge of equal actions hash the same objects every cycle).
 *
 * <p>They behave as the JDK's unmodifiable views they wrap: same iteration order, equality with any
 * map or list of the same entries, an {@link UnsupportedOperationException} on any change.
 */
final class Frozen {
    private Frozen() {}

    static boolean is(Object value) {
        return value instanceof FrozenMap || value instanceof FrozenList;
    }

    /** {@code entries} must hold frozen values only, and nothing else may hold it. */
    static Map<String, Object> map(Map<String, Object> entries) {
        return new FrozenMap(Collections.unmodifiableMap(entries));
    }

    /** {@code items} must hold frozen values only, and nothing else may hold it. */
    static List<Object> list(List<Object> items) {
        return new FrozenList(Collections.unmodifiableList(items));
    }

    private static final class FrozenMap extends AbstractMap<String, Object> {
        private final Map<String, Object> view;
        private int hash;

        FrozenMap(Map<String, Object> view) {
            this.view = view;
        }

        @Override public Set<Entry<String, Object>> entrySet() { return view.entrySet(); }
        @Override public Set<String> keySet() { return view.keySet(); }
        @Override public Collection<Object> values() { return view.values(); }
        @Override public int size() { return view.size(); }
        @Override public boolean isEmpty() { return view.isEmpty(); }
        @Override public Object get(Object key) { return view.get(key); }
        @Override public Object getOrDefault(Object key, Object fallback) { return view.getOrDefault(key, fallback); }
        @Override public boolean containsKey(Object key) { return view.containsKey(key); }
        @Override public void forEach(BiConsumer<? super String, ? super Object> action) { view.forEach(action); }
        @Override public boolean equals(Object other) { return other == this || view.equals(other); }
        @Override public String toString() { return view.toString(); }

        @Override
        public int hashCode() {
            int h = hash;
            if (h == 0) {
                h = view.hashCode();
                hash = h;
            }
            return h;
        }
    }

    private static final class FrozenList extends AbstractList<Object> implements RandomAccess {
        private final List<Object> view;
        private int hash;

        FrozenList(List<Object> view) {
            this.view = view;
        }

        @Override public Object get(int index) { return view.get(index); }
        @Override public int size() { return view.size(); }
        @Override public void forEach(Consumer<? super Object> action) { view.forEach(action); }
        @Override public boolean equals(Object other) { return other == this || view.equals(other); }
        @Override public String toString() { return view.toString(); }

        @Override
        public int hashCode() {
            int h = hash;
            if (h == 0) {
                h = view.hashCode();
                hash = h;
            }
            return h;
        }
    }
}
