package dev.runbook.rules.docs;

import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.Actions;
import dev.runbook.rules.docs.MarkdownExamples.Example;
import dev.runbook.rules.fact.Clock;
import dev.runbook.rules.fact.Condition;
import dev.runbook.rules.fact.Params;
import dev.runbook.rules.fact.Primary;
import dev.runbook.rules.fact.Resource;
import dev.runbook.rules.fact.Values;
import dev.runbook.rules.function.Durations;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the examples of docs/reference/facts.md and docs/reference/actions.md, as read by
 * {@link MarkdownExamples} (the page format) and evaluated by {@link ExampleEvaluator} (the
 * expressions).
 *
 * <p>Each row of a {@code | call | result |} table: the call is evaluated and its result compared
 * with the documented one. A {@code ```java action} block and the {@code ```yaml} block after it are
 * compared as data: the YAML parsed with SnakeYAML must equal {@code action.toMap()}, types included.
 * The expressions may call static methods of {@link #CLASSES}.
 */
class DocumentedVocabularyExamplesTest {

    private static final Map<String, Class<?>> CLASSES = Map.of(
            "Actions", Actions.class,
            "Instant", Instant.class,
            "Duration", Duration.class,
            "Durations", Durations.class,
            "Map", Map.class,
            "List", List.class);
    private static final ExampleEvaluator EVALUATOR = new ExampleEvaluator(CLASSES);

    // ---- the examples ------------------------------------------------------------------------------

    @TestFactory
    Stream<DynamicTest> everyExampleOfTheFactsPageHoldsTrue() throws IOException {
        return run("facts.md");
    }

    @TestFactory
    Stream<DynamicTest> everyExampleOfTheActionsPageHoldsTrue() throws IOException {
        return run("actions.md");
    }

    private static Stream<DynamicTest> run(String page) throws IOException {
        return examples(page).stream().map(example -> DynamicTest.dynamicTest(example.toString(), () -> {
            if (example.action()) {
                Object action = EVALUATOR.value(example.call(), example.names());
                assertThat(action).as("%s must make an action", example).isInstanceOf(Action.class);
                Object expected = Values.frozen(new Yaml().<Object>load(example.expected()));
                assertThat(((Action) action).toMap()).as("YAML form of %s", example).isEqualTo(expected);
            } else {
                assertThat(EVALUATOR.evaluate(example.call(), example.names())).as("result of %s", example)
                        .isEqualTo(example.expected());
            }
        }));
    }

    @Test
    void theFactsPageHasExamplesForEveryFactType() throws IOException {
        List<Example> examples = examples("facts.md");
        assertThat(examples).hasSizeGreaterThanOrEqualTo(120);
        Set<String> receivers = new TreeSet<>();
        for (Example e : examples) receivers.add(e.call().replaceAll("\\..*", ""));
        assertThat(receivers).contains("resource", "primary", "clock", "params");
    }

    @Test
    void theActionsPageShowsTheYamlFormOfEveryFactory() throws IOException {
        List<Example> examples = examples("actions.md");
        List<Example> forms = examples.stream().filter(Example::action).toList();
        assertThat(forms).hasSizeGreaterThanOrEqualTo(18);
        assertThat(examples.size() - forms.size()).as("table rows").isGreaterThanOrEqualTo(35);
        Set<String> shown = new TreeSet<>();
        for (Example e : forms) {
            Matcher m = Pattern.compile("^Actions\\.(\\w+)\\(").matcher(e.call().strip());
            if (m.find()) shown.add(m.group(1));
        }
        assertThat(shown).containsAll(publicMethodNames(Actions.class, true));
    }

    @Test
    void theFactsPageNamesEveryPublicMethodOfTheFacts() throws IOException {
        String text = MarkdownExamples.text("facts.md");
        Set<String> missing = new TreeSet<>();
        for (Class<?> type : List.of(Resource.class, Primary.class, Condition.class, Clock.class, Params.class)) {
            for (String name : publicMethodNames(type, false)) {
                if (!text.contains(name + "(")) missing.add(type.getSimpleName() + "." + name);
            }
        }
        assertThat(missing).as("public methods that facts.md does not mention").isEmpty();
    }

    @Test
    void theEvaluatorSeesAWrongResult() {
        Map<String, Object> names = Map.of("resource", new Resource(Map.of("kind", "Pod",
                "metadata", Map.of("name", "p", "labels", Map.of("role", "primary")))));
        assertThat(EVALUATOR.evaluate("resource.label(\"role\")", names)).isEqualTo("\"primary\"")
                .isNotEqualTo("\"replica\"");
        assertThat(EVALUATOR.evaluate("resource.integer(\"spec.instances\", 3)", names)).isEqualTo("3");
        assertThat(EVALUATOR.evaluate("resource.str(\"spec.instances\")", names)).isEqualTo("null");
        assertThat(EVALUATOR.evaluate("resource.getLabels().get(\"role\")", names)).isEqualTo("\"primary\"");
        assertThat(EVALUATOR.evaluate("Actions.label(resource, \"\", \"x\")", names))
                .isEqualTo("IllegalArgumentException: label on Pod p needs a key");
        Object action = EVALUATOR.value("Actions.setStatus(resource, \"n\", 3)", names);
        assertThat(((Action) action).toMap()).isEqualTo(Values.frozen(new Yaml().<Object>load("""
                {action: setStatus, target: {apiVersion: '', kind: Pod, name: p}, path: n, value: 3}"""))
        ).isNotEqualTo(new Yaml().load("""
                {action: setStatus, target: {apiVersion: '', kind: Pod, name: p}, path: n, value: '3'}"""));
    }

    private static List<Example> examples(String page) throws IOException {
        return MarkdownExamples.read(page, EVALUATOR);
    }

    private static Set<String> publicMethodNames(Class<?> type, boolean onlyStatic) {
        Set<String> names = new TreeSet<>();
        for (Method m : type.getDeclaredMethods()) {
            if (Modifier.isPublic(m.getModifiers()) && Modifier.isStatic(m.getModifiers()) == onlyStatic
                    && !List.of("equals", "hashCode", "toString").contains(m.getName())) {
                names.add(m.getName());
            }
        }
        return names;
    }
}
