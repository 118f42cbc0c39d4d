package dev.runbook.postgres.vocabulary;

import dev.runbook.postgres.contract.Lsn;
import dev.runbook.rules.docs.ExampleEvaluator;
import dev.runbook.rules.docs.MarkdownExamples;
import dev.runbook.rules.docs.MarkdownExamples.Example;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs every {@code | call | result |} row of docs/reference/postgres-contract.md, the page of the
 * postgres-cluster bundle's own functions, as the core's functions.md rows are run.
 */
class DocumentedPostgresFunctionExamplesTest {

    private static final String PAGE = "postgres-contract.md";
    private static final Map<String, Class<?>> FUNCTION_CLASSES = Map.of(
            "Lsn", Lsn.class,
            "Backups", Backups.class,
            "ObjectStores", ObjectStores.class);
    private static final ExampleEvaluator EVALUATOR = new ExampleEvaluator(Map.of(
            "Lsn", Lsn.class,
            "Backups", Backups.class,
            "ObjectStores", ObjectStores.class,
            "Instant", Instant.class));

    @TestFactory
    Stream<DynamicTest> everyDocumentedExampleGivesItsDocumentedResult() throws IOException {
        return examples().stream().map(example -> DynamicTest.dynamicTest(example.toString(),
                () -> assertThat(EVALUATOR.evaluate(example.call(), example.names()))
                        .as("result of %s at %s line %d", example.call(), PAGE, example.line())
                        .isEqualTo(example.expected())));
    }

    @Test
    void everyFunctionClassHasExamples() throws IOException {
        Set<String> documented = examples().stream().map(e -> e.call().substring(0, e.call().indexOf('.'))).collect(Collectors.toSet());
        assertThat(documented).containsAll(FUNCTION_CLASSES.keySet());
    }

    private static List<Example> examples() throws IOException {
        List<Example> examples = MarkdownExamples.read(PAGE, EVALUATOR);
        assertThat(examples).as("examples in %s", PAGE).isNotEmpty().noneMatch(Example::action);
        return examples;
    }
}
