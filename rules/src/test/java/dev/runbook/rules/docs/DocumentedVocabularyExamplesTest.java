package dev.runbook.rules.docs;

import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.Actions;
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
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Runs the examples of docs/reference/facts.md and docs/reference/actions.md.
 *
 * <p>The pages are read from top to bottom. These fenced blocks, told apart by their info string,
 * define the values that the examples after them use; a later block of the same name replaces an
 * earlier one:
 * <ul>
 *   <li>{@code ```yaml object NAME} holds one Kubernetes object: {@code NAME} becomes
 *       {@code new Resource(map)}. Without a NAME it is called {@code resource}.</li>
 *   <li>{@code ```yaml primary NAME} is the same for {@code new Primary(map)}; by default {@code primary}.</li>
 *   <li>{@code ```yaml params NAME} holds parameter values: {@code new Params(map)}; by default {@code params}.</li>
 *   <li>{@code ```java clock} holds one line {@code Clock NAME = EXPRESSION;}.</li>
 * </ul>
 *
 * <p>Two kinds of examples are run:
 * <ul>
 *   <li>Each row of a {@code | call | result |} table: the call is evaluated and its result
 *       compared with the documented one. A String result is documented in double quotes, anything
 *       else by its {@code toString()}, and a call that throws by {@code ExceptionSimpleName: message}.</li>
 *   <li>A {@code ```java action} block holds one expression that makes an action; the next fenced
 *       block must be a plain {@code ```yaml} block, the action's YAML form. Both are compared as
 *       data: the YAML parsed with SnakeYAML must equal {@code action.toMap()}, types included.</li>
 * </ul>
 *
 * <p>An expression is a literal (string, integer, decimal, {@code true}, {@code false},
 * {@code null}), a defined name, {@code new Clock(...)}, a static call on one of {@link #CLASSES},
 * or any of these followed by method calls: {@code resource.condition("Ready").getReason()}. An
 * integer literal passed as an {@code Object} (as to {@code Map.of}) is an {@code Integer}, as
 * SnakeYAML would read it. Other fenced blocks ({@code drl}, plain {@code yaml} not after a
 * {@code java action}) are not run.
 */
class DocumentedVocabularyExamplesTest {

    private static final Path DOCS = Path.of("docs", "reference");
    private static final Map<String, Class<?>> CLASSES = Map.of(
            "Actions", Actions.class,
            "Instant", Instant.class,
            "Duration", Duration.class,
            "Durations", Durations.class,
            "Map", Map.class,
            "List", List.class);
    private static final Pattern FENCE = Pattern.compile("^```\\s*(.*)$");
    private static final Pattern HEADER = Pattern.compile("\\|\\s*call\\s*\\|\\s*result\\s*\\|");
    private static final Pattern SEPARATOR = Pattern.compile("\\|\\s*-{3,}\\s*\\|\\s*-{3,}\\s*\\|");
    private static final Pattern ROW = Pattern.compile("\\|\\s*`([^`]+)`\\s*\\|\\s*`([^`]+)`\\s*\\|");
    private static final Pattern CLOCK = Pattern.compile("Clock\\s+(\\w+)\\s*=\\s*(.+);");

    /** One runnable example: a table row or an action with its YAML form. */
    record Example(String page, int line, String call, String expected, boolean action, Map<String, Object> names) {
        @Override
        public String toString() {
            return page + ":" + line + " " + call.replaceAll("\\s+", " ");
        }
    }

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
                Object action = new Parser(example.call(), example.names()).whole();
                assertThat(action).as("%s must make an action", example).isInstanceOf(Action.class);
                Object expected = Values.frozen(new Yaml().<Object>load(example.expected()));
                assertThat(((Action) action).toMap()).as("YAML form of %s", example).isEqualTo(expected);
            } else {
                assertThat(evaluate(example.call(), example.names())).as("result of %s", example)
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
        String text = Files.readString(page("facts.md"), StandardCharsets.UTF_8);
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
        assertThat(evaluate("resource.label(\"role\")", names)).isEqualTo("\"primary\"").isNotEqualTo("\"replica\"");
        assertThat(evaluate("resource.integer(\"spec.instances\", 3)", names)).isEqualTo("3");
        assertThat(evaluate("resource.str(\"spec.instances\")", names)).isEqualTo("null");
        assertThat(evaluate("resource.getLabels().get(\"role\")", names)).isEqualTo("\"primary\"");
        assertThat(evaluate("Actions.label(resource, \"\", \"x\")", names))
                .isEqualTo("IllegalArgumentException: label on Pod p needs a key");
        Object action = new Parser("Actions.setStatus(resource, \"n\", 3)", names).whole();
        assertThat(((Action) action).toMap()).isEqualTo(Values.frozen(new Yaml().<Object>load("""
                {action: setStatus, target: {apiVersion: '', kind: Pod, name: p}, path: n, value: 3}"""))
        ).isNotEqualTo(new Yaml().load("""
                {action: setStatus, target: {apiVersion: '', kind: Pod, name: p}, path: n, value: '3'}"""));
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

    // ---- reading a page ------------------------------------------------------------------------------

    private static List<Example> examples(String name) throws IOException {
        List<String> lines = Files.readAllLines(page(name), StandardCharsets.UTF_8);
        Map<String, Object> names = new HashMap<>();
        List<Example> examples = new ArrayList<>();
        Example pendingAction = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher fence = FENCE.matcher(line);
            if (fence.matches()) {
                String info = fence.group(1).strip();
                int start = i + 1;
                int end = start;
                while (end < lines.size() && !lines.get(end).strip().equals("```")) end++;
                if (end == lines.size()) fail("%s line %d: the fenced block is not closed", name, i + 1);
                String body = String.join("\n", lines.subList(start, end));
                if (pendingAction != null) {
                    if (!info.equals("yaml")) {
                        fail("%s line %d: a ```java action block must be followed by a ```yaml block", name, i + 1);
                    }
                    examples.add(new Example(name, pendingAction.line(), pendingAction.call(), body, true,
                            pendingAction.names()));
                    pendingAction = null;
                } else {
                    pendingAction = define(name, i + 1, info, body, names);
                }
                i = end;
                continue;
            }
            if (HEADER.matcher(line.strip()).matches()) {
                assertThat(lines.get(i + 1).strip()).as("%s line %d: the separator under | call | result |", name, i + 2)
                        .matches(SEPARATOR);
                int j = i + 2;
                for (; j < lines.size() && lines.get(j).strip().startsWith("|"); j++) {
                    Matcher row = ROW.matcher(lines.get(j).strip());
                    if (!row.matches()) fail("%s line %d is not | `call` | `result` |: %s", name, j + 1, lines.get(j));
                    examples.add(new Example(name, j + 1, row.group(1), row.group(2), false, Map.copyOf(names)));
                }
                i = j - 1;
            }
        }
        if (pendingAction != null) fail("%s line %d: a ```java action block without its ```yaml form", name, pendingAction.line());
        return examples;
    }

    /** Defines a name from a block; returns the pending example of a {@code java action} block. */
    private static Example define(String page, int line, String info, String body, Map<String, Object> names) {
        String[] words = info.split("\\s+");
        String kind = words.length >= 2 ? words[0] + " " + words[1] : info;
        String name = words.length >= 3 ? words[2] : null;
        try {
            switch (kind) {
                case "yaml object" -> names.put(name == null ? "resource" : name, new Resource(new Yaml().load(body)));
                case "yaml primary" -> names.put(name == null ? "primary" : name, new Primary(new Yaml().load(body)));
                case "yaml params" -> names.put(name == null ? "params" : name, new Params(new Yaml().load(body)));
                case "java clock" -> {
                    Matcher m = CLOCK.matcher(body.strip());
                    if (!m.matches()) fail("%s line %d: a ```java clock block holds Clock NAME = EXPRESSION;", page, line);
                    names.put(m.group(1), new Parser(m.group(2), names).whole());
                }
                case "java action" -> {
                    return new Example(page, line + 1, body.strip(), null, true, Map.copyOf(names));
                }
                default -> { }
            }
        } catch (RuntimeException e) {
            throw new AssertionError(page + " line " + line + ": the ```" + info + " block does not define a value: " + e, e);
        }
        return null;
    }

    /** The page, found from the working directory (the rules module) or any directory above it. */
    private static Path page(String name) {
        Path relative = DOCS.resolve(name);
        Path start = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(relative))) return dir.resolve(relative);
        }
        throw new AssertionError(relative + " not found in " + start + " or any directory above it");
    }

    // ---- evaluating an expression -----------------------------------------------------------------

    /** The documented form of what {@code call} returns or throws. */
    static String evaluate(String call, Map<String, Object> names) {
        try {
            Object value = new Parser(call, names).whole();
            return value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
        } catch (Thrown thrown) {
            Throwable cause = thrown.getCause();
            return cause.getClass().getSimpleName() + ": " + cause.getMessage();
        }
    }

    /** An exception thrown by the code called, as opposed to an error in the example itself. */
    private static final class Thrown extends RuntimeException {
        Thrown(Throwable cause) {
            super(cause);
        }
    }

    /** A literal number, converted once the parameter type is known. */
    private record NumberLiteral(String text) {
        boolean integer() { return !text.contains("."); }

        /** As an Object: what SnakeYAML would make of the same number. */
        Object boxed() {
            if (!integer()) return Double.valueOf(text);
            long value = Long.parseLong(text);
            return value == (int) value ? (Object) (int) value : (Object) value;
        }
    }

    private static final class Parser {
        private final String text;
        private final Map<String, Object> names;
        private int pos;

        Parser(String text, Map<String, Object> names) {
            this.text = text;
            this.names = names;
        }

        Object whole() {
            Object value = expression();
            skipSpaces();
            if (pos != text.length()) throw error("unexpected text");
            return value instanceof NumberLiteral n ? n.boxed() : value;
        }

        private Object expression() {
            Object value = operand();
            while (accept('.')) {
                String method = identifier();
                List<Object> args = arguments();
                if (value == null) throw error("cannot call " + method + " on null");
                value = invoke(value.getClass(), value, method, args);
            }
            return value;
        }

        private Object operand() {
            skipSpaces();
            if (peek() == '"') return string();
            if (peek() == '-' || Character.isDigit(peek())) return number();
            String name = identifier();
            switch (name) {
                case "null": return null;
                case "true": return Boolean.TRUE;
                case "false": return Boolean.FALSE;
                case "new": {
                    String type = identifier();
                    List<Object> args = arguments();
                    if (type.equals("Clock") && args.size() == 1 && args.get(0) instanceof Instant now) return new Clock(now);
                    throw error("only new Clock(Instant) is known");
                }
                default: break;
            }
            if (names.containsKey(name)) return names.get(name);
            Class<?> type = CLASSES.get(name);
            if (type == null) throw error("unknown name " + name + "; known: " + names.keySet() + " and " + CLASSES.keySet());
            expect('.');
            String method = identifier();
            return invoke(type, null, method, arguments());
        }

        private List<Object> arguments() {
            expect('(');
            List<Object> args = new ArrayList<>();
            skipSpaces();
            if (peek() != ')') {
                do {
                    args.add(expression());
                } while (accept(','));
            }
            expect(')');
            return args;
        }

        private Object invoke(Class<?> type, Object receiver, String method, List<Object> args) {
            boolean wantStatic = receiver == null;
            List<Method> candidates = Arrays.stream(type.getMethods())
                    .filter(m -> m.getName().equals(method) && Modifier.isStatic(m.getModifiers()) == wantStatic)
                    .filter(m -> m.getParameterCount() == args.size() && !m.isVarArgs())
                    .filter(m -> convertible(m.getParameterTypes(), args))
                    .toList();
            if (candidates.size() != 1) {
                throw error(candidates.size() + " public methods " + type.getSimpleName() + "." + method + " take " + args);
            }
            Method target = reachable(candidates.get(0));
            Object[] values = new Object[args.size()];
            for (int i = 0; i < values.length; i++) values[i] = convert(target.getParameterTypes()[i], args.get(i));
            try {
                return target.invoke(receiver, values);
            } catch (InvocationTargetException e) {
                throw new Thrown(e.getCause());
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }

        /** The same method as declared by a public type, e.g. Map.get for an unmodifiable map's get. */
        private static Method reachable(Method method) {
            if (Modifier.isPublic(method.getDeclaringClass().getModifiers())) return method;
            Deque<Class<?>> todo = new ArrayDeque<>(List.of(method.getDeclaringClass()));
            Set<Class<?>> seen = new LinkedHashSet<>();
            while (!todo.isEmpty()) {
                Class<?> type = todo.pop();
                if (!seen.add(type)) continue;
                if (Modifier.isPublic(type.getModifiers())) {
                    try {
                        return type.getMethod(method.getName(), method.getParameterTypes());
                    } catch (NoSuchMethodException e) {
                        // look further up
                    }
                }
                todo.addAll(Arrays.asList(type.getInterfaces()));
                if (type.getSuperclass() != null) todo.add(type.getSuperclass());
            }
            return method;
        }

        private static boolean convertible(Class<?>[] types, List<Object> args) {
            for (int i = 0; i < types.length; i++) {
                Object arg = args.get(i);
                Class<?> type = types[i];
                boolean ok;
                if (arg == null) {
                    ok = !type.isPrimitive();
                } else if (arg instanceof NumberLiteral n) {
                    ok = type == double.class || type == Double.class || type == Object.class
                            || n.integer() && (type == long.class || type == Long.class || type == int.class
                            || type == Integer.class);
                } else if (arg instanceof Boolean) {
                    ok = type == boolean.class || type == Boolean.class || type == Object.class;
                } else {
                    ok = type.isInstance(arg);
                }
                if (!ok) return false;
            }
            return true;
        }

        private static Object convert(Class<?> type, Object arg) {
            if (!(arg instanceof NumberLiteral n)) return arg;
            if (type == int.class || type == Integer.class) return Integer.valueOf(n.text());
            if (type == long.class || type == Long.class) return Long.valueOf(n.text());
            if (type == double.class || type == Double.class) return Double.valueOf(n.text());
            return n.boxed();
        }

        private String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (pos < text.length() && text.charAt(pos) != '"') {
                char c = text.charAt(pos++);
                if (c == '\\') {
                    if (pos >= text.length()) throw error("unfinished escape");
                    c = text.charAt(pos++);
                }
                out.append(c);
            }
            expect('"');
            return out.toString();
        }

        private NumberLiteral number() {
            int start = pos;
            if (peek() == '-') pos++;
            while (pos < text.length() && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '.')) pos++;
            String literal = text.substring(start, pos);
            if (!literal.matches("-?\\d+(\\.\\d+)?")) throw error("bad number " + literal);
            return new NumberLiteral(literal);
        }

        private String identifier() {
            skipSpaces();
            int start = pos;
            while (pos < text.length() && Character.isJavaIdentifierPart(text.charAt(pos))) pos++;
            if (start == pos) throw error("expected a name, a string, a number or null");
            return text.substring(start, pos);
        }

        private void expect(char c) {
            if (!accept(c)) throw error("expected '" + c + "'");
        }

        private boolean accept(char c) {
            skipSpaces();
            if (pos < text.length() && text.charAt(pos) == c) {
                pos++;
                return true;
            }
            return false;
        }

        private char peek() {
            return pos < text.length() ? text.charAt(pos) : '\0';
        }

        private void skipSpaces() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) pos++;
        }

        private IllegalStateException error(String problem) {
            return new IllegalStateException("cannot read the example `" + text + "` at " + pos + ": " + problem);
        }
    }
}
