package dev.runbook.engine.template;

import com.github.benmanes.caffeine.cache.Interner;
import dev.runbook.rules.fact.Values;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parsed template output, frozen, with every part that is the same as a part already made shared
 * instead of repeated: the objects a bundle renders for its primaries differ in a few names (a
 * cluster's StatefulSet, Services and ConfigMap at 1000 clusters differ from one another in the
 * cluster's name and little else), and the render cache keeps them all, each parsed anew with strings
 * of its own. Bottom-up: the texts once per process, then each list and map once per content (its
 * values shared already), a map only with one whose keys come in the same order, so a shared part is
 * equal to what was parsed, key order included. Frozen values cannot change, so sharing them is
 * invisible but for memory.
 *
 * <p>Held weakly: a part no cached object uses any more is collected with its entry. Measured at 1000
 * clusters: docs/performance.md#the-operators-memory.
 */
final class SharedTrees {
    private static final Interner<String> TEXTS = Interner.newWeakInterner();
    /**
     * Frozen maps and lists, by content. A map's equality ignores the order of its keys, so a map is
     * shared only with one whose keys come in the same order (else it stays as parsed). Their parts
     * are shared already, so comparing two of them compares their parts by identity first: one level.
     */
    private static final Interner<Object> PARTS = Interner.newWeakInterner();

    private SharedTrees() {}

    /** {@code built} (maps, lists and leaves as a parser makes them) frozen, its parts shared; equal to {@code Values.frozen(built)}, key order included. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> frozen(Map<String, ?> built) {
        return (Map<String, Object>) shared(built);
    }

    private static Object shared(Object value) {
        if (value instanceof String text) return TEXTS.intern(text);
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((key, item) -> copy.put(TEXTS.intern(String.valueOf(key)), shared(item)));
            return canonical(Values.frozenOwned(copy));
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(item -> copy.add(shared(item)));
            return canonical(Values.frozen(copy));
        }
        return Values.frozen(value);
    }

    /**
     * The shared copy of {@code frozen}, or {@code frozen} itself: a map or list is only equal to another
     * whatever the order of keys within them, so the one found is used only when it holds the very same
     * parts in the same order (its parts are shared, so the same object; numbers and booleans equal).
     */
    private static Object canonical(Object frozen) {
        Object found = PARTS.intern(frozen);
        return found == frozen || sameParts(found, frozen) ? found : frozen;
    }

    private static boolean sameParts(Object a, Object b) {
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            if (x.size() != y.size()) return false;
            var others = y.entrySet().iterator();
            for (Map.Entry<?, ?> entry : x.entrySet()) {
                Map.Entry<?, ?> other = others.next();
                if (!entry.getKey().equals(other.getKey()) || !samePart(entry.getValue(), other.getValue())) return false;
            }
            return true;
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) return false;
            for (int i = 0; i < x.size(); i++) {
                if (!samePart(x.get(i), y.get(i))) return false;
            }
            return true;
        }
        return false;
    }

    private static boolean samePart(Object a, Object b) {
        return a == b || a != null && b != null && a.getClass() == b.getClass() && !(a instanceof Map || a instanceof List)
                && a.equals(b);
    }
}
