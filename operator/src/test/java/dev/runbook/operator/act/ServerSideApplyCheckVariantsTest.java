package dev.runbook.operator.act;

import dev.runbook.rules.fact.Values;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The apply check walks the desired object and the manager's fields side by side; it decides exactly as
 * the sets of field paths it replaced did ({@link PathSets}, kept here as the reference), on the
 * objects of the scale benchmark and on every variation of them one change away: each field of the
 * desired or the cached object (its managedFields included) removed, given another value, emptied,
 * or given an extra key.
 */
class ServerSideApplyCheckVariantsTest {
    private static final String MANAGER = "runbook-postgres-cluster";
    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cached(String name) {
        try (InputStream in = ServerSideApplyCheckVariantsTest.class.getResourceAsStream("/cached/" + name + ".json")) {
            return SERIALIZATION.convertValue(SERIALIZATION.unmarshal(in, GenericKubernetesResource.class), LinkedHashMap.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, Object> yaml(String name) {
        try (InputStream in = ServerSideApplyCheckVariantsTest.class.getResourceAsStream("/act/" + name)) {
            return new Yaml().load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"statefulset", "service", "configmap", "fixture"})
    void decidesAsThePathSetsDidOnEveryVariation(String name) {
        Map<String, Object> cached = name.equals("fixture") ? yaml("service-applied.yaml") : cached(name);
        Map<String, Object> desired = name.equals("fixture") ? yaml("service-desired.yaml") : CompactApplyCheckTest.desired(cached);
        String manager = name.equals("fixture") ? "runbook-test" : MANAGER;
        assertThat(ServerSideApplyCheck.changesNothing(desired, cached, manager)).isTrue();

        int same = 0;
        int changes = 0;
        for (Map<String, Object> variant : variants(desired)) {
            boolean expected = PathSets.changesNothing(variant, cached, manager);
            assertThat(ServerSideApplyCheck.changesNothing(variant, cached, manager)).as("desired %s", variant).isEqualTo(expected);
            assertThat(ServerSideApplyCheck.changesNothing(Values.frozenMap(variant), Values.frozenMap(cached), manager))
                    .isEqualTo(expected);
            if (expected) same++; else changes++;
        }
        for (Map<String, Object> variant : variants(cached)) {
            boolean expected = PathSets.changesNothing(desired, variant, manager);
            assertThat(ServerSideApplyCheck.changesNothing(desired, variant, manager)).as("cached %s", variant).isEqualTo(expected);
            if (expected) same++; else changes++;
        }
        assertThat(same).as("variations that change nothing").isPositive();
        assertThat(changes).as("variations that change something").isPositive();
    }

    /** Every copy of {@code object} with one change at one place. */
    private static List<Map<String, Object>> variants(Map<String, Object> object) {
        List<List<Object>> places = new ArrayList<>();
        places(object, new ArrayList<>(), places);
        List<Function<Object, Object>> changes = List.of(
                value -> REMOVED,
                value -> "changed",
                value -> 7,
                value -> new LinkedHashMap<>(),
                value -> {
                    if (!(value instanceof Map<?, ?> map)) return value;
                    Map<Object, Object> more = new LinkedHashMap<>(map);
                    more.put("x-extra", "v");
                    return more;
                },
                value -> {
                    if (!(value instanceof Map<?, ?> map)) return value;
                    Map<Object, Object> more = new LinkedHashMap<>(map);
                    more.put("f:x-extra", new LinkedHashMap<>());
                    return more;
                });
        List<Map<String, Object>> variants = new ArrayList<>();
        for (List<Object> place : places) {
            for (Function<Object, Object> change : changes) variants.add(changed(object, place, change));
        }
        return variants;
    }

    private static final Object REMOVED = new Object();

    private static void places(Object value, List<Object> path, List<List<Object>> into) {
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                List<Object> child = new ArrayList<>(path);
                child.add(entry.getKey());
                into.add(child);
                places(entry.getValue(), child, into);
            }
        } else if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                List<Object> child = new ArrayList<>(path);
                child.add(i);
                into.add(child);
                places(list.get(i), child, into);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> changed(Map<String, Object> object, List<Object> place, Function<Object, Object> change) {
        Map<String, Object> copy = Values.thawed(object);
        Object parent = copy;
        for (Object step : place.subList(0, place.size() - 1)) {
            parent = parent instanceof Map<?, ?> map ? map.get(step) : ((List<?>) parent).get((Integer) step);
        }
        Object last = place.get(place.size() - 1);
        if (parent instanceof Map<?, ?> map) {
            Object value = change.apply(map.get(last));
            if (value == REMOVED) map.remove(last);
            else ((Map<Object, Object>) map).put(last, value);
        } else {
            List<Object> list = (List<Object>) parent;
            Object value = change.apply(list.get((Integer) last));
            if (value == REMOVED) list.remove((int) (Integer) last);
            else list.set((Integer) last, value);
        }
        return copy;
    }

    /** The apply check as it was: every owned and every desired field as a path, the two sets compared. */
    static final class PathSets {
        static boolean changesNothing(Map<String, Object> desired, Map<String, Object> cached, String fieldManager) {
            if (cached == null) return false;
            Map<?, ?> owned = ServerSideApplyCheck.ownedByApply(cached, fieldManager);
            if (owned == null) return false;
            Set<List<String>> ownedPaths = new HashSet<>();
            ownedPaths(owned, List.of(), ownedPaths);
            Set<List<String>> desiredPaths = new HashSet<>();
            desiredPaths(desired, List.of(), ownedPaths, desiredPaths);
            return ownedPaths.equals(desiredPaths) && contains(cached, desired, List.of(), ownedPaths);
        }

        private static void ownedPaths(Map<?, ?> fields, List<String> path, Set<List<String>> into) {
            for (Map.Entry<?, ?> entry : fields.entrySet()) {
                String key = String.valueOf(entry.getKey());
                if (!key.startsWith("f:")) continue;
                List<String> child = append(path, key.substring(2));
                Map<?, ?> below = entry.getValue() instanceof Map<?, ?> m ? m : Map.of();
                boolean leaf = below.keySet().stream().noneMatch(k -> String.valueOf(k).startsWith("f:"));
                if (leaf || isList(below)) into.add(child);
                else ownedPaths(below, child, into);
            }
        }

        private static boolean isList(Map<?, ?> fields) {
            return fields.keySet().stream().map(String::valueOf)
                    .anyMatch(k -> k.startsWith("k:") || k.startsWith("v:") || k.startsWith("i:"));
        }

        private static void desiredPaths(Map<?, ?> object, List<String> path, Set<List<String>> owned,
                                         Set<List<String>> into) {
            for (Map.Entry<?, ?> entry : object.entrySet()) {
                String key = String.valueOf(entry.getKey());
                if (path.isEmpty() && (key.equals("apiVersion") || key.equals("kind"))) continue;
                if (path.equals(List.of("metadata")) && (key.equals("name") || key.equals("namespace"))) continue;
                List<String> child = append(path, key);
                if (entry.getValue() instanceof Map<?, ?> map && !map.isEmpty() && !owned.contains(child)) {
                    desiredPaths(map, child, owned, into);
                } else {
                    into.add(child);
                }
            }
        }

        private static boolean contains(Object actual, Object expected, List<String> path, Set<List<String>> owned) {
            if (expected instanceof Map<?, ?> want) {
                if (!(actual instanceof Map<?, ?> have)) return false;
                if (!path.isEmpty() && owned.contains(path) && !have.keySet().equals(want.keySet())) return false;
                for (Map.Entry<?, ?> entry : want.entrySet()) {
                    if (!have.containsKey(entry.getKey()) && entry.getValue() != null) return false;
                    List<String> child = append(path, String.valueOf(entry.getKey()));
                    if (!contains(have.get(entry.getKey()), entry.getValue(), child, owned)) return false;
                }
                return true;
            }
            if (expected instanceof List<?> want) {
                if (!(actual instanceof List<?> have) || have.size() != want.size()) return false;
                for (int i = 0; i < want.size(); i++) {
                    if (!contains(have.get(i), want.get(i), append(path, "[" + i + "]"), owned)) return false;
                }
                return true;
            }
            if (expected instanceof Number a && actual instanceof Number b) {
                return a.doubleValue() == b.doubleValue();
            }
            return Objects.equals(expected, actual);
        }

        private static List<String> append(List<String> path, String key) {
            String[] steps = path.toArray(new String[path.size() + 1]);
            steps[path.size()] = key;
            return List.of(steps);
        }
    }
}
