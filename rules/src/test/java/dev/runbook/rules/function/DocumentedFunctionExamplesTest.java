package dev.runbook.rules.function;

import dev.runbook.rules.docs.ExampleEvaluator;
import dev.runbook.rules.docs.FunctionPageExamples;
import dev.runbook.rules.docs.MarkdownExamples;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs every example of docs/reference/functions.md: each row of a {@code | call | result |}
 * table is evaluated and its result compared with the documented one.
 *
 * <p>A call is {@code Class.method(arg, ...)} where Class is one of the function classes; an
 * argument is a string literal, an integer or decimal literal (an int, long, double or BigDecimal as
 * the parameter wants), {@code null}, {@code true}, {@code false}, {@code Instant.parse("...")},
 * {@code Duration.parse("...")} or another call. A String result is documented in double quotes,
 * anything else by its {@code toString()}, and a call that throws by
 * {@code ExceptionSimpleName: message}. The page is read by {@link MarkdownExamples} and the calls
 * evaluated by {@link ExampleEvaluator}.
 */
class DocumentedFunctionExamplesTest extends FunctionPageExamples {

    DocumentedFunctionExamplesTest() {
        super("functions.md", Map.of(
                "Durations", Durations.class,
                "Cron", Cron.class,
                "Versions", Versions.class,
                "Quantities", Quantities.class,
                "Names", Names.class), Map.of(
                "Instant", Instant.class,
                "Duration", Duration.class));
    }

    @Test
    void theEvaluatorSeesAWrongResult() {
        ExampleEvaluator evaluator = evaluator();
        assertThat(evaluator.evaluate("Durations.seconds(\"5m\")")).isEqualTo("300").isNotEqualTo("301");
        assertThat(evaluator.evaluate("Cron.slotId(\"0 2 * * *\", Instant.parse(\"2026-11-30T09:15:00Z\"))"))
                .isEqualTo("\"20261130-0200\"");
        assertThat(evaluator.evaluate("Durations.seconds(\"5x\")")).startsWith("IllegalArgumentException: '5x'");
        // a decimal literal passed to a BigDecimal parameter stays exact
        assertThat(evaluator.evaluate("Quantities.parse(\"1.5\").add(2.25)")).isEqualTo("3.75");
    }
}
