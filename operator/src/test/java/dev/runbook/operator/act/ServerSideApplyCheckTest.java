package dev.runbook.operator.act;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Whether a server-side apply would change nothing, from the cached object alone. */
class ServerSideApplyCheckTest {
    private static final String MANAGER = "runbook-test";

    private static Map<String, Object> load(String name) {
        try (InputStream in = ServerSideApplyCheckTest.class.getResourceAsStream("/act/" + name)) {
            return new Yaml().load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> object, String key) {
        Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) object.get(key));
        object.put(key, copy);
        return copy;
    }

    @Test
    void theObjectAsAppliedWithServerDefaultsAndAnotherManagersLabelChangesNothing() {
        assertThat(ServerSideApplyCheck.changesNothing(load("service-desired.yaml"), load("service-applied.yaml"), MANAGER)).isTrue();
    }

    @Test
    void aDesiredValueThatDiffersChanges() {
        Map<String, Object> desired = load("service-desired.yaml");
        map(map(desired, "spec"), "selector").put("postgres.runbook.dev/role", "replica");
        assertThat(ServerSideApplyCheck.changesNothing(desired, load("service-applied.yaml"), MANAGER)).isFalse();
    }

    @Test
    void aNewDesiredFieldChangesEvenWhenTheObjectAlreadyHoldsIt() {
        // team: storage is there, but owned by another manager: applying it takes ownership, a write.
        Map<String, Object> desired = load("service-desired.yaml");
        map(map(desired, "metadata"), "labels").put("team", "storage");
        assertThat(ServerSideApplyCheck.changesNothing(desired, load("service-applied.yaml"), MANAGER)).isFalse();
    }

    @Test
    void aFieldNoLongerDesiredChangesBecauseApplyRemovesIt() {
        Map<String, Object> desired = load("service-desired.yaml");
        map(desired, "metadata").remove("labels");
        assertThat(ServerSideApplyCheck.changesNothing(desired, load("service-applied.yaml"), MANAGER)).isFalse();
    }

    @Test
    void aMapOwnedWholeWithAnExtraKeyChanges() {
        Map<String, Object> cached = load("service-applied.yaml");
        map(map(cached, "spec"), "selector").put("extra", "x");
        assertThat(ServerSideApplyCheck.changesNothing(load("service-desired.yaml"), cached, MANAGER)).isFalse();
    }

    @Test
    void aListItemThatDiffersChanges() {
        Map<String, Object> desired = load("service-desired.yaml");
        map(desired, "spec").put("ports", List.of(Map.of("name", "postgres", "port", 5433)));
        assertThat(ServerSideApplyCheck.changesNothing(desired, load("service-applied.yaml"), MANAGER)).isFalse();
    }

    @Test
    void anObjectThisManagerNeverAppliedOrNoObjectChanges() {
        Map<String, Object> cached = load("service-applied.yaml");
        map(cached, "metadata").put("managedFields", new ArrayList<>(List.of()));
        assertThat(ServerSideApplyCheck.changesNothing(load("service-desired.yaml"), cached, MANAGER)).isFalse();
        assertThat(ServerSideApplyCheck.changesNothing(load("service-desired.yaml"), null, MANAGER)).isFalse();
        assertThat(ServerSideApplyCheck.changesNothing(load("service-desired.yaml"), load("service-applied.yaml"), "someone-else")).isFalse();
    }
}
