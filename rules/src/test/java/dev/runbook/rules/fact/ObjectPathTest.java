package dev.runbook.rules.fact;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ObjectPathTest {
    private static final Map<String, Object> ROOT = Map.of(
            "spec", Map.of("backup", Map.of("schedule", "0 2 * * *")),
            "status", Map.of("members", List.of(
                    Map.of("name", "pg-0", "ports", List.of(5432, 8008)),
                    Map.of("name", "pg-1"))),
            "matrix", List.of(List.of("a", "b"), List.of("c")));

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "spec.backup.schedule     | spec, backup, schedule",
        "status.members[0].name   | status, members, [0], name",
        "matrix[1][0]             | matrix, [1], [0]",
        "[2]                      | [2]",
        "a..b                     | a, b",
        "a.[0]                    | a, [0]",
    })
    void splitsAPathIntoSteps(String path, String steps) {
        assertThat(ObjectPath.steps(path)).containsExactlyElementsOf(Arrays.asList(steps.split(",\\s*")));
    }

    @Test
    void readsMapsAndListIndexes() {
        assertThat(ObjectPath.read(ROOT, "spec.backup.schedule")).isEqualTo("0 2 * * *");
        assertThat(ObjectPath.read(ROOT, "status.members[1].name")).isEqualTo("pg-1");
        assertThat(ObjectPath.read(ROOT, "status.members[0].ports[1]")).isEqualTo(8008);
        assertThat(ObjectPath.read(ROOT, "matrix[1][0]")).isEqualTo("c");
        assertThat(ObjectPath.read(ROOT, "matrix[ 0 ][1]")).isEqualTo("b");
        assertThat(ObjectPath.read(ROOT, "spec")).isEqualTo(ROOT.get("spec"));
    }

    @Test
    void aMissingStepYieldsNull() {
        assertThat(ObjectPath.read(ROOT, "spec.restore.schedule")).isNull();
        assertThat(ObjectPath.read(ROOT, "status.members[2].name")).isNull();
        assertThat(ObjectPath.read(ROOT, "status.members[-1]")).isNull();
        assertThat(ObjectPath.read(ROOT, "status.members.name")).as("a key on a list").isNull();
        assertThat(ObjectPath.read(ROOT, "spec[0]")).as("an index on a map").isNull();
        assertThat(ObjectPath.read(ROOT, "spec.backup.schedule.hour")).as("a key on a string").isNull();
        assertThat(ObjectPath.read(null, "spec")).isNull();
    }

    @Test
    void anEmptyOrMalformedPathIsAnError() {
        assertThatIllegalArgumentException().isThrownBy(() -> ObjectPath.steps(""))
                .withMessage("an object path must not be empty: use e.g. spec.instances");
        assertThatIllegalArgumentException().isThrownBy(() -> ObjectPath.steps(null));
        assertThatIllegalArgumentException().isThrownBy(() -> ObjectPath.steps("  "));
        assertThatIllegalArgumentException().isThrownBy(() -> ObjectPath.steps("status.members[0.name"))
                .withMessage("'status.members[0.name' has an unclosed '[': use e.g. status.members[0].name");
        assertThatIllegalArgumentException().isThrownBy(() -> ObjectPath.read(ROOT, "status.members[first]"))
                .withMessage("'[first]' is not a list index: use e.g. [0]");
    }
}
