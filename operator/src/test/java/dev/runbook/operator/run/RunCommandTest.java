package dev.runbook.operator.run;

import dev.runbook.operator.cli.RunbookCommand;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code runbook run}: what it refuses before it connects to a cluster. The operator itself runs in the *IT tests. */
class RunCommandTest {
    record Result(int code, String out, String err) {}

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = RunbookCommand.execute(Clock.systemUTC(), new PrintWriter(out), new PrintWriter(err), args);
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void theCommandIsListed() {
        assertThat(run("--help").out()).contains("run", "Run the operator");
    }

    @Test
    void itHasHelp() {
        Result result = run("run", "--help");
        assertThat(result.code()).isZero();
        assertThat(result.out()).contains("--bundle=DIR", "--namespace=NS", "KUBECONFIG");
    }

    @Test
    void aBundleIsRequired() {
        Result result = run("run");
        assertThat(result.code()).isEqualTo(RunbookCommand.BAD_INPUT);
        assertThat(result.err()).contains("Missing required option: '--bundle=DIR'");
    }

    @Test
    void aBundleThatIsNotThereIsBadInputNamingIt() {
        Result result = run("run", "--bundle", "no/such/bundle");
        assertThat(result.code()).isEqualTo(RunbookCommand.BAD_INPUT);
        assertThat(result.err()).contains("no/such/bundle", "not a directory");
    }

    @Test
    void aBundleThatDoesNotCompileIsRefusedBeforeAnythingStarts() {
        Result result = run("run", "--bundle", "src/test/resources/bundles/web-app", "--bundle", "../engine/src/test/resources/bundles/broken-syntax");
        assertThat(result.code()).isEqualTo(RunbookCommand.BAD_INPUT);
        assertThat(result.err()).contains("rules/");
        assertThat(result.out()).isEmpty();
    }
}
