package dev.runbook.cli.command;

import dev.runbook.operator.command.ExitCodes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code runbook new} writes a bundle that lints and passes its tests at once, and refuses what it cannot write. */
class NewCommandTest {

    @Test
    void aNewBundleLintsAndPassesItsTestsAtOnce(@TempDir Path work) throws IOException {
        CommandResult created = CommandResult.run("new", "demo", "--kind", "demo.example.com/v1alpha1/Demo", "--dir", work.toString());

        assertThat(created.exitCode()).as(created.err()).isZero();
        assertThat(created.out()).contains("wrote demo/bundle.yaml", "wrote demo/crds/demos.demo.example.com.yaml",
                "wrote demo/rules/demo.drl", "wrote demo/tests/basic.yaml", "wrote demo/samples/demo.yaml", "wrote demo/README.md");
        Path bundle = work.resolve("demo");
        assertThat(Files.readString(bundle.resolve("bundle.yaml"))).contains("apiVersion: demo.example.com/v1alpha1", "kind: Demo",
                "plural: demos");
        assertThat(Files.readString(bundle.resolve("rules/demo.drl"))).startsWith("package demo\n")
                .contains("// The demo runbook.", "rule \"Keep the ConfigMap of the Demo\"");

        CommandResult lint = CommandResult.run("lint", bundle.toString());
        assertThat(lint.exitCode()).as(lint.err()).isZero();
        assertThat(lint.err()).as("no warnings").isEmpty();
        assertThat(lint.out()).contains("bundle demo 0.1.0: 4 rules, 1 template: OK");

        CommandResult test = CommandResult.run("test", bundle.toString());
        assertThat(test.exitCode()).as(test.out() + test.err()).isZero();
        assertThat(test.out()).contains("PASS tests/basic.yaml: a new Demo gets its ConfigMap and becomes Ready", "1 passed, 0 failed");
    }

    @Test
    void theScenarioOfANewBundleReallyChecksItsRules(@TempDir Path work) throws IOException {
        CommandResult.run("new", "demo", "--kind", "demo.example.com/v1/Demo", "--dir", work.toString());
        Path rules = work.resolve("demo/rules/demo.drl");
        Files.writeString(rules, Files.readString(rules).replace("insertLogical(applyTemplate(\"configmap.yaml\"));", ""));

        CommandResult test = CommandResult.run("test", work.resolve("demo").toString());

        assertThat(test.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(test.out()).contains("FAIL tests/basic.yaml");
    }

    @Test
    void anExistingDirectoryIsNeverOverwritten(@TempDir Path work) throws IOException {
        Files.createDirectories(work.resolve("demo"));
        Files.writeString(work.resolve("demo/bundle.yaml"), "name: mine\n");

        CommandResult result = CommandResult.run("new", "demo", "--kind", "demo.example.com/v1alpha1/Demo", "--dir", work.toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("already exists: runbook new writes a new bundle and never overwrites one");
        assertThat(Files.readString(work.resolve("demo/bundle.yaml"))).isEqualTo("name: mine\n");
    }

    @Test
    void aBadNameOrKindIsRefusedWithTheFormItMustTake(@TempDir Path work) {
        CommandResult badName = CommandResult.run("new", "Demo_App", "--kind", "demo.example.com/v1alpha1/Demo", "--dir", work.toString());
        assertThat(badName.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(badName.err()).contains("NAME 'Demo_App' must be lower-case letters, digits and '-'");

        CommandResult badKind = CommandResult.run("new", "demo", "--kind", "v1/Demo", "--dir", work.toString());
        assertThat(badKind.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(badKind.err()).contains("--kind 'v1/Demo' must be GROUP/VERSION/KIND with a dotted group, e.g. demo.example.com/v1alpha1/Demo");
        assertThat(work).isEmptyDirectory();
    }
}
