package dev.runbook.rules.fact;

import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
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
 *
 * <p>A map of up to {@value #COMPACT_ENTRIES} entries is kept as two arrays, its keys and its values,
 * and looked up by scanning them, instead of a {@code LinkedHashMap} behind its unmodifiable view (its
 * table, an entry object per key, the view, the entry-set views it caches). The render cache keeps every
 * object a bundle renders for every primary, and Kubernetes objects are mostly small maps: on the
 * postgres-cluster bundle what the engine keeps per primary fell from 37.4 to about 21 KB with this
 * (docs/performance.md#the-operators-memory). A larger map stays a view of its {@code LinkedHashMap}.
 */
final class Frozen {
    private Frozen() {}

    static boolean is(Object value) {
        return value instanceof FrozenMap || value instanceof CompactMap || value instanceof FrozenList;
    }

    /** Maps of at most this many entries are kept as arrays ({@link CompactMap}). */
    static final int COMPACT_ENTRIES = 16;

    /** {@code entries} (frozen values only) as a frozen map: copied into arrays when small, else wrapped. */
    static Map<String, Object> map(Map<String, Object> entries) {
        return entries.size() <= COMPACT_ENTRIES ? CompactMap.of(entries) : wrap(entries);
    }

    /**
     * {@code entries} wrapped, not copied, whatever its size: for a map built for one cycle and dropped
     * after it, where the copy into arrays would cost more than the bytes it saves.
     * {@code entries} must hold frozen values only, and nothing else may hold it.
     */
    static Map<String, Object> wrap(Map<String, Object> entries) {
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

    /** A small frozen map: its keys and values in two arrays, in insertion order. */
    private static final class CompactMap extends AbstractMap<String, Object> {
        private final String[] keys;
        private final Object[] values;
        private int hash;

        private CompactMap(String[] keys, Object[] values) {
            this.keys = keys;
            this.values = values;
        }

        static CompactMap of(Map<String, Object> entries) {
            String[] keys = new String[entries.size()];
            Object[] values = new Object[keys.length];
            int i = 0;
            for (Entry<String, Object> entry : entries.entrySet()) {
                keys[i] = entry.getKey();
                values[i++] = entry.getValue();
            }
            return new CompactMap(keys, values);
        }

        private int indexOf(Object key) {
            for (int i = 0; i < keys.length; i++) {
                if (keys[i].equals(key)) return i;
            }
            return -1;
        }

        @Override public int size() { return keys.length; }
        @Override public boolean isEmpty() { return keys.length == 0; }
        @Override public boolean containsKey(Object key) { return indexOf(key) >= 0; }

        @Override
        public Object get(Object key) {
            int i = indexOf(key);
            return i < 0 ? null : values[i];
        }

        @Override
        public Object getOrDefault(Object key, Object fallback) {
            int i = indexOf(key);
            return i < 0 ? fallback : values[i];
        }

        @Override
        public void forEach(BiConsumer<? super String, ? super Object> action) {
            for (int i = 0; i < keys.length; i++) action.accept(keys[i], values[i]);
        }

        @Override
        public Set<Entry<String, Object>> entrySet() {
            return new AbstractSet<>() {
                @Override public int size() { return keys.length; }

                @Override
                public Iterator<Entry<String, Object>> iterator() {
                    return new Iterator<>() {
                        private int next;

                        @Override public boolean hasNext() { return next < keys.length; }

                        @Override
                        public Entry<String, Object> next() {
                            if (next >= keys.length) throw new NoSuchElementException();
                            int i = next++;
                            return new SimpleImmutableEntry<>(keys[i], values[i]);
                        }
                    };
                }
            };
        }

        /** A view made on each call, not kept: a kept view would be bytes in every map that ever gave one. */
        @Override
        public Set<String> keySet() {
            return new AbstractSet<>() {
                @Override public int size() { return keys.length; }
                @Override public boolean contains(Object key) { return indexOf(key) >= 0; }
                @Override public Iterator<String> iterator() { return Collections.unmodifiableList(Arrays.asList(keys)).iterator(); }
            };
        }

        @Override
        public Collection<Object> values() { return Collections.unmodifiableList(Arrays.asList(values)); }

        // Every change is refused, even one that would change nothing, as the JDK's unmodifiable view refuses it.
        @Override public Object put(String key, Object value) { throw refused(); }
        @Override public Object remove(Object key) { throw refused(); }
        @Override public void putAll(Map<? extends String, ?> other) { throw refused(); }
        @Override public void clear() { throw refused(); }
        @Override public void replaceAll(java.util.function.BiFunction<? super String, ? super Object, ?> function) { throw refused(); }
        @Override public Object putIfAbsent(String key, Object value) { throw refused(); }
        @Override public boolean remove(Object key, Object value) { throw refused(); }
        @Override public boolean replace(String key, Object oldValue, Object newValue) { throw refused(); }
        @Override public Object replace(String key, Object value) { throw refused(); }
        @Override public Object computeIfAbsent(String key, java.util.function.Function<? super String, ?> function) { throw refused(); }
        @Override public Object computeIfPresent(String key, java.util.function.BiFunction<? super String, ? super Object, ?> f) { throw refused(); }
        @Override public Object compute(String key, java.util.function.BiFunction<? super String, ? super Object, ?> f) { throw refused(); }
        @Override public Object merge(String key, Object value, java.util.function.BiFunction<? super Object, ? super Object, ?> f) { throw refused(); }

        private static UnsupportedOperationException refused() { return new UnsupportedOperationException("a frozen map cannot change"); }

        @Override
        public int hashCode() {
            int h = hash;
            if (h == 0) {
                for (int i = 0; i < keys.length; i++) h += keys[i].hashCode() ^ Objects.hashCode(values[i]);
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
