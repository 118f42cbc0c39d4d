package dev.runbook.testkit.invariant;

import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.rules.action.Actions;
import dev.runbook.rules.fact.Params;
import dev.runbook.rules.fact.Primary;
import dev.runbook.rules.fact.Resource;
import dev.runbook.rules.invariant.AppliedAction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InvariantsTest {
    private static final String NO_DELETES = """
            package test

            import dev.runbook.rules.invariant.AppliedAction
            import dev.runbook.rules.invariant.Violation

            rule "Nothing is deleted"
            when
                $a : AppliedAction(type == "delete", changed)
            then
                insert(new Violation("deleted " + $a.getName() + ", which was " + ($a.getBefore() == null ? "absent" : "there")));
            end
            """;

    private static final Primary PRIMARY = new Primary(Map.of("apiVersion", "x/v1", "kind", "Thing",
            "metadata", Map.of("name", "t", "namespace", "ns")));
    private static final Resource POD = new Resource(Map.of("apiVersion", "v1", "kind", "Pod",
            "metadata", Map.of("name", "p", "namespace", "ns")));

    @Test
    void aViolationIsNamedAfterTheRuleThatInsertedIt(@TempDir Path bundle) throws IOException {
        Files.createDirectories(bundle.resolve("invariants"));
        Files.writeString(bundle.resolve("invariants/deletes.drl"), NO_DELETES);
        Invariants invariants = Invariants.load(bundle);
        Observation after = new Observation(PRIMARY, List.of(), Instant.parse("2026-11-30T09:00:00Z"));
        AppliedAction deleted = new AppliedAction(Actions.delete(POD), List.of("A rule"), "DELETED", POD);
        AppliedAction nothing = new AppliedAction(Actions.delete(POD), List.of("A rule"), "NONE", null);

        assertThat(invariants.names()).containsExactly("Nothing is deleted");
        assertThat(invariants.check(after, new Params(Map.of()), List.of(deleted)))
                .containsExactly(new InvariantViolation("Nothing is deleted", "deleted p, which was there"));
        assertThat(invariants.check(after, new Params(Map.of()), List.of(nothing))).isEmpty();
    }

    @Test
    void aBundleWithoutInvariantsChecksNothing(@TempDir Path bundle) {
        assertThat(Invariants.load(bundle)).isSameAs(Invariants.NONE);
        assertThat(Invariants.NONE.isEmpty()).isTrue();
    }

    @Test
    void aBrokenInvariantIsReportedAtItsPlace() {
        assertThatThrownBy(() -> Invariants.compile(Map.of("invariants/broken.drl",
                "package test\nrule \"broken\"\nwhen\n    Undefined(\nthen\nend\n")))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("invariants/broken.drl:");
    }
}
