package dev.runbook.engine.idiom;

import dev.runbook.engine.bundle.BundleSpecParser;
import dev.runbook.engine.problem.Problem;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class IdiomLintTest {
    private static String resource(String path) throws IOException {
        try (var in = IdiomLintTest.class.getResourceAsStream("/idiom/" + path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static final String HEAD = "name: b\nprimary: {apiVersion: example.runbook.dev/v1, kind: Valve, plural: valves}\n";

    @Test
    void aPauseGuardIsRedundantInARuleThatDoesNotActWhilePaused() throws IOException {
        List<Problem> warnings = IdiomLint.check(Map.of("rules/guards.drl", resource("guards.drl")),
                BundleSpecParser.parse(HEAD + "pause: {field: spec.paused}\n"));

        // Only the first rule: the second says @whilePaused, so its not Paused() is what it means.
        assertThat(warnings).filteredOn(w -> w.message().contains("not Paused()")).singleElement().satisfies(w -> {
            assertThat(w.file()).isEqualTo("rules/guards.drl");
            assertThat(w.line()).isEqualTo(11);
            assertThat(w.column()).isEqualTo(9);
            assertThat(w.message()).startsWith("rule \"Guarded by hand\": not Paused() is redundant");
        });
    }

    @Test
    void withoutAPauseInBundleYamlAGuardIsTheBundlesOwnAndABareSalienceIsNamed() throws IOException {
        String drl = resource("guards.drl").replace("rule \"Guarded by hand\"\n", "rule \"Guarded by hand\"\nsalience -10\n");

        List<Problem> warnings = IdiomLint.check(Map.of("rules/guards.drl", drl), BundleSpecParser.parse(HEAD));

        assertThat(warnings).filteredOn(w -> w.message().contains("salience")).singleElement().satisfies(w -> {
            assertThat(w.line()).isEqualTo(9);
            assertThat(w.message()).startsWith("rule \"Guarded by hand\": salience -10 is a bare number");
        });
    }

    @Test
    void aLoopInAConsequenceIsPlacedAndOneInAStringOrACommentIsNot() throws IOException {
        List<Problem> warnings = IdiomLint.check(Map.of("rules/guards.drl", resource("guards.drl")), BundleSpecParser.parse(HEAD));

        assertThat(warnings).singleElement().satisfies(w -> {
            assertThat(w.line()).isEqualTo(31);
            assertThat(w.column()).isEqualTo(5);
            assertThat(w.message()).startsWith("rule \"Joins names in a loop\": a for loop in the consequence");
        });
    }
}
