package dev.runbook.rules.function;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Runs every example of docs/reference/functions.md: each row of a {@code | call | result |}
 * table is evaluated and its result compared with the documented one.
 *
 * <p>A call is {@code Class.method(arg, ...)} where Class is one of the function classes; an
 * argument is a string literal, an integer or decimal literal, {@code null}, {@code true},
 * {@code false}, {@code Instant.parse("...")}, {@code Duration.parse("...")} or another call. A
 * String result is documented in double quotes, anything else by its {@code toString()}, and a call
 * that throws by {@code ExceptionSimpleName: message}.
 */
class DocumentedFunctionExamplesTest {

    private static final Path PAGE = Path.of("docs", "reference", "functions.md");
    private static final Map<String, Class<?>> FUNCTION_CLASSES = Map.of(
            "Durations", Durations.class,
            "Cron", Cron.class,
            "Versions", Versions.class,
            "Quantities", Quantities.class);
    private static final Pattern HEADER = Pattern.compile("\\|\\s*call\\s*\\|\\s*result\\s*\\|");
    private static final Pattern SEPARATOR = Pattern.compile("\\|\\s*-{3,}\\s*\\|\\s*-{3,}\\s*\\|");
    private static final Pattern ROW = Pattern.compile("\\|\\s*`([^`]+)`\\s*\\|\\s*`([^`]+)`\\s*\\|");

    record Example(int line, String call, String result) {
        @Override
        public String toString() {
            return "functions.md:" + line + " " + call;
        }
    }

    @TestFactory
    Stream<DynamicTest> everyDocumentedExampleGivesItsDocumentedResult() throws IOException {
        return examples().stream().map(example -> DynamicTest.dynamicTest(example.toString(),
                () -> assertThat(evaluate(example.call()))
                        .as("result of %s at functions.md line %d", example.call(), example.line())
                        .isEqualTo(example.result())));
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
        assertThat(evaluate("Durations.seconds(\"5m\")")).isEqualTo("300").isNotEqualTo("301");
        assertThat(evaluate("Cron.slotId(\"0 2 * * *\", Instant.parse(\"2026-11-30T09:15:00Z\"))"))
                .isEqualTo("\"20261130-0200\"");
        assertThat(evaluate("Durations.seconds(\"5x\")")).startsWith("IllegalArgumentException: '5x'");
    }

    // ---- reading the page ---------------------------------------------------------------------

    private static List<Example> examples() throws IOException {
        List<String> lines = Files.readAllLines(page(), StandardCharsets.UTF_8);
        List<Example> examples = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!HEADER.matcher(lines.get(i).strip()).matches()) {
                continue;
            }
            assertThat(lines.get(i + 1).strip()).as("line %d: the separator under | call | result |", i + 2)
                    .matches(SEPARATOR);
            for (int j = i + 2; j < lines.size() && lines.get(j).strip().startsWith("|"); j++) {
                Matcher row = ROW.matcher(lines.get(j).strip());
                if (!row.matches()) {
                    fail("functions.md line %d is not | `call` | `result` |: %s", j + 1, lines.get(j));
                }
                examples.add(new Example(j + 1, row.group(1), row.group(2)));
            }
        }
        assertThat(examples).as("examples in %s", page()).isNotEmpty();
        return examples;
    }

    /** The page, found from the working directory (the rules module) or any directory above it. */
    private static Path page() {
        Path start = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(PAGE))) {
                return dir.resolve(PAGE);
            }
        }
        throw new AssertionError(PAGE + " not found in " + start + " or any directory above it");
    }

    // ---- evaluating a call ----------------------------------------------------------------------

    /** The documented form of what {@code call} returns or throws. */
    static String evaluate(String call) {
        try {
            Parser parser = new Parser(call);
            Object value = parser.expression();
            parser.end();
            return value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
        } catch (Thrown thrown) {
            Throwable cause = thrown.getCause();
            return cause.getClass().getSimpleName() + ": " + cause.getMessage();
        }
    }

    /** An exception thrown by the function called, as opposed to an error in the example itself. */
    private static final class Thrown extends RuntimeException {
        Thrown(Throwable cause) {
            super(cause);
        }
    }

    /** A literal number, converted once the parameter type is known. */
    private record NumberLiteral(String text) {
    }

    private static final class Parser {
        private final String text;
        private int pos;

        Parser(String text) {
            this.text = text;
        }

        Object expression() {
            skipSpaces();
            if (peek() == '"') return string();
            if (peek() == '-' || Character.isDigit(peek())) return number();
            String name = identifier();
            switch (name) {
                case "null": return null;
                case "true": return Boolean.TRUE;
                case "false": return Boolean.FALSE;
                default: break;
            }
            expect('.');
            String method = identifier();
            expect('(');
            List<Object> args = new ArrayList<>();
            skipSpaces();
            if (peek() != ')') {
                do {
                    args.add(expression());
                    skipSpaces();
                } while (accept(','));
            }
            expect(')');
            return call(name, method, args);
        }

        void end() {
            skipSpaces();
            if (pos != text.length()) throw error("unexpected text");
        }

        private Object call(String type, String method, List<Object> args) {
            if (type.equals("Instant") && method.equals("parse") && args.size() == 1 && args.get(0) instanceof String s) {
                return Instant.parse(s);
            }
            if (type.equals("Duration") && method.equals("parse") && args.size() == 1 && args.get(0) instanceof String s) {
                return Duration.parse(s);
            }
            Class<?> owner = FUNCTION_CLASSES.get(type);
            if (owner == null) {
                throw error("unknown class " + type + "; use one of " + FUNCTION_CLASSES.keySet()
                        + ", Instant.parse or Duration.parse");
            }
            List<Method> candidates = Arrays.stream(owner.getMethods())
                    .filter(m -> m.getName().equals(method) && Modifier.isStatic(m.getModifiers()))
                    .filter(m -> m.getParameterCount() == args.size())
                    .filter(m -> convertible(m.getParameterTypes(), args))
                    .toList();
            if (candidates.size() != 1) {
                throw error(candidates.size() + " public static methods " + type + "." + method + " take "
                        + args);
            }
            Method target = candidates.get(0);
            Object[] values = new Object[args.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = convert(target.getParameterTypes()[i], args.get(i));
            }
            try {
                return target.invoke(null, values);
            } catch (InvocationTargetException e) {
                throw new Thrown(e.getCause());
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }

        private static boolean convertible(Class<?>[] types, List<Object> args) {
            for (int i = 0; i < types.length; i++) {
                Object arg = args.get(i);
                Class<?> type = types[i];
                boolean ok;
                if (arg == null) {
                    ok = !type.isPrimitive();
                } else if (arg instanceof NumberLiteral n) {
                    boolean integer = !n.text().contains(".");
                    ok = type == BigDecimal.class || type == double.class || type == Double.class
                            || integer && (type == long.class || type == Long.class || type == int.class
                            || type == Integer.class);
                } else if (arg instanceof Boolean) {
                    ok = type == boolean.class || type == Boolean.class;
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
            return new BigDecimal(n.text());
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
            skipSpaces();
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
            while (pos < text.length() && text.charAt(pos) == ' ') pos++;
        }

        private IllegalStateException error(String problem) {
            return new IllegalStateException("cannot read the example `" + text + "` at " + pos + ": " + problem);
        }
    }
}
