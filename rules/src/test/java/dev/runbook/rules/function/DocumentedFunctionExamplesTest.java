package dev.runbook.rules.function;

import dev.runbook.rules.docs.ExampleEvaluator;
import dev.runbook.rules.docs.MarkdownExamples;
import dev.runbook.rules.docs.MarkdownExamples.Example;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

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
class DocumentedFunctionExamplesTest {

    private static final String PAGE = "functions.md";
    private static final Map<String, Class<?>> FUNCTION_CLASSES = Map.of(
            "Durations", Durations.class,
            "Cron", Cron.class,
            "Versions", Versions.class,
            "Quantities", Quantities.class,
            "Names", Names.class);
    private static final ExampleEvaluator EVALUATOR = new ExampleEvaluator(Map.of(
            "Durations", Durations.class,
            "Cron", Cron.class,
            "Versions", Versions.class,
            "Quantities", Quantities.class,
            "Names", Names.class,
            "Instant", Instant.class,
            "Duration", Duration.class));

    @TestFactory
    Stream<DynamicTest> everyDocumentedExampleGivesItsDocumentedResult() throws IOException {
        return examples().stream().map(example -> DynamicTest.dynamicTest(example.toString(),
                () -> assertThat(EVALUATOR.evaluate(example.call(), example.names()))
                        .as("result of %s at functions.md line %d", example.call(), example.line())
                        .isEqualTo(example.expected())));
    }

    @Test
    void everyFunctionClassHasExamples() throws IOException {
        Set<String> documented = new LinkedHashSet<>();
        for (Example example : examples()) {
            documented.add(example.call().substring(0, example.call().indexOf('.')));
        }
        assertThat(documented).containsAll(FUNCTION_CLASSES.keySet());
    }

    @Test
    void theEvaluatorSeesAWrongResult() {
        assertThat(EVALUATOR.evaluate("Durations.seconds(\"5m\")")).isEqualTo("300").isNotEqualTo("301");
        assertThat(EVALUATOR.evaluate("Cron.slotId(\"0 2 * * *\", Instant.parse(\"2026-11-30T09:15:00Z\"))"))
                .isEqualTo("\"20261130-0200\"");
        assertThat(EVALUATOR.evaluate("Durations.seconds(\"5x\")")).startsWith("IllegalArgumentException: '5x'");
        // a decimal literal passed to a BigDecimal parameter stays exact
        assertThat(EVALUATOR.evaluate("Quantities.parse(\"1.5\").add(2.25)")).isEqualTo("3.75");
    }

    /** The table rows of the page: it has no other kind of example. */
    private static List<Example> examples() throws IOException {
        List<Example> examples = MarkdownExamples.read(PAGE, EVALUATOR);
        assertThat(examples).as("examples in %s", PAGE).isNotEmpty().noneMatch(Example::action);
        return examples;
    }
}
