package dev.runbook.rules.docs;

import dev.runbook.rules.fact.Clock;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Evaluates the Java expressions written in the examples of the reference pages, by reflection.
 *
 * <p>An expression is a literal (string, integer, decimal, {@code true}, {@code false},
 * {@code null}), a defined name, {@code new Clock(...)}, a static call on one of the classes this
 * evaluator is given, or any of these followed by method calls:
 * {@code resource.condition("Ready").getReason()}. A number literal takes the type of the parameter
 * it is passed to ({@code int}, {@code long}, {@code double} or {@link BigDecimal}); passed as an
 * {@code Object} (as to {@code Map.of}) an integer is an {@code Integer}, as SnakeYAML would read it.
 *
 * <p>The documented form of a result ({@link #evaluate}) is a String in double quotes, anything
 * else by its {@code toString()}, and a call that throws by {@code ExceptionSimpleName: message}.
 */
public final class ExampleEvaluator {

    private final Map<String, Class<?>> classes;

    /** @param classes the classes whose static methods the examples call, by the name they use */
    public ExampleEvaluator(Map<String, Class<?>> classes) {
        this.classes = Map.copyOf(classes);
    }

    /** The documented form of what {@code call} returns or throws. */
    public String evaluate(String call) {
        return evaluate(call, Map.of());
    }

    /** The documented form of what {@code call} returns or throws, {@code names} being defined. */
    public String evaluate(String call, Map<String, Object> names) {
        try {
            Object value = value(call, names);
            return value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
        } catch (Thrown thrown) {
            Throwable cause = thrown.getCause();
            return cause.getClass().getSimpleName() + ": " + cause.getMessage();
        }
    }

    /**
     * What {@code expression} returns, {@code names} being defined. An exception thrown by the code
     * called is rethrown wrapped in a {@link Thrown}.
     */
    public Object value(String expression, Map<String, Object> names) {
        return new Parser(expression, names).whole();
    }

    /** An exception thrown by the code called, as opposed to an error in the example itself. */
    public static final class Thrown extends RuntimeException {
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

    private final class Parser {
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
            Class<?> type = classes.get(name);
            if (type == null) throw error("unknown name " + name + "; known: " + names.keySet() + " and " + classes.keySet());
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

    /** Whether each argument can be passed as the parameter type at its place. */
    private static boolean convertible(Class<?>[] types, List<Object> args) {
        for (int i = 0; i < types.length; i++) {
            Object arg = args.get(i);
            Class<?> type = types[i];
            boolean ok;
            if (arg == null) {
                ok = !type.isPrimitive();
            } else if (arg instanceof NumberLiteral n) {
                ok = type == BigDecimal.class || type == double.class || type == Double.class || type == Object.class
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
        if (type == BigDecimal.class) return new BigDecimal(n.text());
        return n.boxed();
    }
}
