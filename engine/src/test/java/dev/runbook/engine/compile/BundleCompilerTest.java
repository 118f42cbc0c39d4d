package dev.runbook.engine.compile;

import dev.runbook.engine.TestBundles;
import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BundleCompilerTest {

    private static Problem onlyProblemOf(String bundle) {
        var error = org.assertj.core.api.Assertions.catchThrowableOfType(InvalidInputException.class,
                () -> BundleCompiler.compile(BundleLoader.load(TestBundles.directory(bundle))));
        assertThat(error).as("compiling %s must fail", bundle).isNotNull();
        return error.getProblems().get(0);
    }

    @Test
    void compilesTheExampleBundleWithItsRulesAndTemplates() {
        CompiledBundle bundle = TestBundles.compiled("example");
        assertThat(bundle.name()).isEqualTo("example");
        assertThat(bundle.ruleNames()).contains(
                "Each pod of the store is a member",
                "Promote the most advanced ready replica when the primary has failed",
                "Keep the store's configuration");
        assertThat(bundle.templates().names()).containsExactly("config.yaml");
        assertThat(bundle.version()).matches("[0-9a-f]{12}");
    }

    @Test
    void theVersionIsAHashOfTheContent() {
        BundleSource source = BundleLoader.load(TestBundles.directory("example"));
        Map<String, String> changed = new HashMap<>(source.files());
        changed.put("rules/status.drl", changed.get("rules/status.drl") + "\n// a comment changes the version\n");
        assertThat(BundleLoader.load(TestBundles.directory("example")).contentHash()).isEqualTo(source.contentHash());
        assertThat(new BundleSource("changed", changed).contentHash()).isNotEqualTo(source.contentHash());
    }

    @Test
    void aSyntaxErrorNamesTheFileLineAndColumn() {
        Problem problem = onlyProblemOf("broken-syntax");
        assertThat(problem.file()).isEqualTo("rules/failover.drl");
        assertThat(problem.line()).isEqualTo(8);
        assertThat(problem.message()).contains("mismatched input 'then'");
        assertThat(problem.column()).isPositive();
        assertThat(problem.toString()).startsWith("rules/failover.drl:8:");
    }

    /**
     * One missing parenthesis in a new file once made Drools drop the package's declared types, so rules in
     * other files failed too (377 lines, the cause on line 223). The files are parsed before anything is
     * built, so a parse error is the whole report: nothing is built on a tree that did not parse.
     */
    @Test
    void aParseErrorIsReportedAloneWithoutItsKnockOnErrors() {
        var error = org.assertj.core.api.Assertions.catchThrowableOfType(InvalidInputException.class,
                () -> BundleCompiler.compile(BundleLoader.load(TestBundles.directory("broken-with-knock-ons"))));

        assertThat(error.getProblems()).extracting(Problem::toString).satisfiesExactly(
                only -> assertThat(only).startsWith("rules/new.drl:11:").contains("mismatched input 'then'"));
    }

    @Test
    void anUnknownFieldNamesTheLineAndPointsAtTheField() {
        Problem problem = onlyProblemOf("broken-type");
        assertThat(problem.file()).isEqualTo("rules/status.drl");
        assertThat(problem.line()).isEqualTo(9);
        assertThat(problem.column()).isEqualTo("    $pod : Resource(kind == \"Pod\", ".length() + 1);
        assertThat(problem.message()).contains("readyness");
    }

    @Test
    void aTemplateThatDoesNotCompileIsReportedWithItsFile() {
        Problem problem = onlyProblemOf("bad-template");
        assertThat(problem.file()).isEqualTo("templates/broken.yaml");
        assertThat(problem.message()).startsWith("template does not compile");
    }

    @Test
    void aBundleWithoutRulesIsRefused() {
        BundleSource source = new BundleSource("memory", Map.of("bundle.yaml",
                "name: empty\nprimary: {apiVersion: example.runbook.dev/v1, kind: Store}\n"));
        assertThatThrownBy(() -> BundleCompiler.compile(source))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("rules/: no .drl files");
    }

    @Test
    void aMissingDirectoryOrBundleYamlIsNamed() {
        assertThatThrownBy(() -> BundleLoader.load(TestBundles.directory("example").resolve("nowhere")))
                .hasMessageContaining("not a directory");
        assertThatThrownBy(() -> BundleLoader.load(TestBundles.directory("example").resolve("rules")))
                .hasMessageContaining("bundle.yaml: missing");
    }
}
