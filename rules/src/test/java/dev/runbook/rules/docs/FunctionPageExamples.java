package dev.runbook.rules.docs;

import dev.runbook.rules.docs.MarkdownExamples.Example;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The tests of a reference page of functions (docs/reference/PAGE): every row of its
 * {@code | call | result |} tables, read by {@link MarkdownExamples}, evaluated by {@link ExampleEvaluator}
 * and compared with the documented result, and every function class the page documents has examples.
 * A page's test names the page, its function classes and the other classes its calls may name.
 */
public abstract class FunctionPageExamples {
    private final String page;
    private final Set<String> functionClasses;
    private final ExampleEvaluator evaluator;

    protected FunctionPageExamples(String page, Map<String, Class<?>> functionClasses, Map<String, Class<?>> otherNames) {
        this.page = page;
        this.functionClasses = Set.copyOf(functionClasses.keySet());
        Map<String, Class<?>> names = new HashMap<>(otherNames);
        names.putAll(functionClasses);
        this.evaluator = new ExampleEvaluator(Map.copyOf(names));
    }

    protected final ExampleEvaluator evaluator() {
        return evaluator;
    }

    @TestFactory
    Stream<DynamicTest> everyDocumentedExampleGivesItsDocumentedResult() throws IOException {
        return examples().stream().map(example -> DynamicTest.dynamicTest(example.toString(),
                () -> assertThat(evaluator.evaluate(example.call(), example.names()))
                        .as("result of %s at %s line %d", example.call(), page, example.line())
                        .isEqualTo(example.expected())));
    }

    @Test
    void everyFunctionClassHasExamples() throws IOException {
        Set<String> documented = examples().stream().map(e -> e.call().substring(0, e.call().indexOf('.'))).collect(Collectors.toSet());
        assertThat(documented).containsAll(functionClasses);
    }

    /** The table rows of the page: it has no other kind of example. */
    private List<Example> examples() throws IOException {
        List<Example> examples = MarkdownExamples.read(page, evaluator);
        assertThat(examples).as("examples in %s", page).isNotEmpty().noneMatch(Example::action);
        return examples;
    }
}
