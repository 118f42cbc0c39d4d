package dev.runbook.engine.containment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks MVEL expressions (DRL conditions, {@code from}, {@code accumulate}, attributes, declared
 * defaults, templates) before they are ever evaluated. MVEL is interpreted by reflection, so there
 * is no bytecode to read: the check walks each name chain member by member on static types, from
 * the pattern's fact type, a binding's, a global's, a class's static members, a declared type's
 * fields or a template variable's, and resolves each member as MVEL would ({@link MemberResolver}).
 * A member not on the allow-list, one that returns a type not on it, and one the static type does
 * not have are refused; so are reflective names anywhere ({@code getClass()}, {@code .class},
 * {@code x["class"]}), statements, loops and function definitions.
 */
final class MvelExpressionCheck {
    /** One refused use, at an offset of the expression. */
    record Finding(int offset, String what, String reason) {}

    private static final Set<String> KEYWORDS = Set.of("while", "for", "foreach", "do", "until", "def", "function",
            "import", "new", "with", "assert", "return");
    private static final Set<String> REFLECTIVE = Set.of("getClass", "class", "wait", "notify", "notifyAll",
            "forName", "getClassLoader", "finalize");
    /** DRL's and MVEL's words: not names of values. Their arguments are checked as the enclosing expression. */
    private static final Set<String> WORDS = Set.of("not", "exists", "forall", "from", "collect", "accumulate", "and", "or",
            "eval", "over", "window", "entry", "point", "null", "true", "false", "nil", "empty", "matches", "contains",
            "memberOf", "soundslike", "in", "excludes", "str", "instanceof", "is", "isdef", "strsim", "convertable_to",
            "after", "before", "coincides", "during", "finishes", "finishedby", "includes", "meets", "metby", "overlaps",
            "overlappedby", "starts", "startedby", "salience", "enabled", "no", "loop", "lock", "on", "active", "agenda",
            "group", "activation", "ruleflow", "auto", "focus", "dialect", "date", "effective", "expires", "duration",
            "timer", "calendars", "when", "attributes", "init", "action", "reverse", "result", "end", "then", "unit",
            "if", "else", "elseif", "int", "cron", "expr");
    /** Drools' accumulate functions and what they return. */
    private static final Map<String, Class<?>> ACCUMULATE = Map.of("count", Long.class, "sum", Number.class,
            "average", Number.class, "min", Number.class, "max", Number.class, "collectList", List.class,
            "collectSet", Set.class, "variance", Number.class, "standardDeviation", Number.class);
    /** Methods whose first argument is a regular expression, on String and (static) on Pattern. */
    private static final Set<String> REGEX_METHODS = Set.of("matches", "replaceAll", "replaceFirst", "split", "compile");

    private final AllowList allowList;
    /** Templates: one expression, no statements; DRL conditions use ';' between accumulate's parts. */
    private final boolean oneExpression;
    private final ClassNames classes;
    private final DeclaredTypes declared;
    private final MemberResolver members;

    /** @param oneExpression refuse statements and blocks (templates) */
    MvelExpressionCheck(AllowList allowList, ClassNames classes, DeclaredTypes declared, MemberResolver members, boolean oneExpression) {
        this.allowList = allowList;
        this.oneExpression = oneExpression;
        this.classes = classes;
        this.declared = declared;
        this.members = members;
    }

    /** What rules are told about a finding. */
    static String message(Finding f) {
        return f.reason().startsWith("not on")
                ? f.what() + " is not allowed in rules: not on the allow-list (see docs/security.md for what rules may call)"
                : f.what() + ": " + f.reason();
    }

    /** The class an accumulate function's result is, or null when it is none of Drools' own functions. */
    static Class<?> accumulateFunction(String name) {
        return ACCUMULATE.get(name);
    }

    static String accumulateFunctions() {
        return String.join(", ", new java.util.TreeSet<>(ACCUMULATE.keySet()));
    }

    boolean permitsType(Class<?> type) {
        return allowList.permitsType(type.getName());
    }

    List<Finding> check(String expression, MvelScope scope) {
        List<Finding> findings = new ArrayList<>();
        scan(expression, 0, expression.length(), scope, findings);
        return findings;
    }

    /** Checks {@code expression} into {@code findings}; the type of its last chain (a foreach's collection), or null. */
    StaticType check(String expression, MvelScope scope, List<Finding> findings) {
        return scan(expression, 0, expression.length(), scope, findings);
    }

    /** Checks {@code text[from, to)}; returns the type of the last chain in it (a foreach's collection), or null. */
    StaticType scan(String text, int from, int to, MvelScope scope, List<Finding> findings) {
        int i = from;
        String binding = null;
        boolean constructor = false;
        StaticType last = null;
        while (i < to) {
            char c = text.charAt(i);
            if (c == '"' || c == '\'') {
                int end = Math.min(MvelChain.skipString(text, i), to);
                // x["class"]: MVEL reads an index as a property where it can; a reflective name is refused as a string too.
                String literal = text.substring(i + 1, Math.max(i + 1, end - 1));
                if (REFLECTIVE.contains(literal) && previousNonBlank(text, i) == '[') {
                    findings.add(new Finding(i + 1, literal, "reflection is not allowed in rules"));
                }
                i = end;
                last = StaticType.Known.of(String.class);
                if (startsMember(text, i, to)) { // "text".trim()
                    MvelChain chain = MvelChain.parse(text, i, to, true);
                    last = walk(text, chain, last, 0, scope, findings);
                    i = chain.end();
                }
                if (binding != null) scope.bind(binding, last);
                binding = null;
                continue;
            }
            if (c == '~' && i + 1 < to && text.charAt(i + 1) == '=') {
                findings.add(new Finding(i, "~=", "MVEL's regular expression operator is not allowed in rules: use matches with a string literal"));
                i += 2;
                continue;
            }
            if (oneExpression && (c == ';' || c == '{' || c == '}')) {
                findings.add(new Finding(i, String.valueOf(c), "a condition or template expression is one expression, not a block of statements"));
                i++;
                continue;
            }
            if (Character.isJavaIdentifierStart(c) && !(i > 0 && (Character.isJavaIdentifierPart(text.charAt(i - 1)) || text.charAt(i - 1) == '.'))) {
                MvelChain chain = MvelChain.parse(text, i, to, false);
                String root = chain.steps().get(0).name();
                i = chain.end();
                int colon = bindingColon(text, i, to);
                if (root.startsWith("$") && chain.steps().size() == 1 && !chain.steps().get(0).call() && colon >= 0) {
                    binding = root; // $x : Pattern(...), $x : field
                    i = colon;
                    continue;
                }
                if (root.equals("new") && chain.steps().size() == 1 && oneExpression) {
                    findings.add(new Finding(chain.steps().get(0).offset(), "new", "'new' is not allowed in a template "
                            + "expression: a template reads values, it creates nothing (an array of any size would be allocated "
                            + "while the bundle renders)"));
                    constructor = true;
                    continue;
                }
                if (root.equals("new") && chain.steps().size() == 1) {
                    constructor = true;
                    continue;
                }
                if (root.equals("matches") && chain.steps().size() == 1 && scope.variable(root) == null) {
                    regexOperand(text, i, to, findings); // name matches "regex": matched inside Drools, where no budget reaches
                    continue;
                }
                last = evaluate(text, chain, scope, constructor, findings);
                constructor = false;
                if (binding != null) scope.bind(binding, last);
                binding = null;
                continue;
            }
            if (c == '.' && startsMember(text, i, to) && i > from && ")]}".indexOf(previousNonBlank(text, i)) >= 0) {
                // a member of a parenthesised value, a call's or an inline collection's: (a + b).trim()
                MvelChain chain = MvelChain.parse(text, i, to, true);
                last = walk(text, chain, new StaticType.Unknown("a parenthesised expression or an inline collection"), 0, scope, findings);
                i = chain.end();
                continue;
            }
            i++;
        }
        return last;
    }

    private StaticType evaluate(String text, MvelChain chain, MvelScope scope, boolean constructor, List<Finding> findings) {
        List<MvelChain.Step> steps = chain.steps();
        MvelChain.Step root = steps.get(0);
        for (MvelChain.Step step : steps) {
            if (REFLECTIVE.contains(step.name())) {
                findings.add(new Finding(step.offset(), step.name(), "reflection is not allowed in rules"));
                return new StaticType.Unknown("reflection");
            }
        }
        if (KEYWORDS.contains(root.name())) {
            findings.add(new Finding(root.offset(), root.name(), "'" + root.name() + "' is not allowed in a condition or a template expression"));
            return new StaticType.Unknown(root.name());
        }
        boolean word = steps.stream().skip(1).allMatch(MvelChain.Step::index); // not (...), str[startsWith]
        if (word && WORDS.contains(root.name()) && scope.variable(root.name()) == null) {
            MvelScope inner = root.name().equals("eval") ? scope.untyped() : scope;
            for (MvelChain.Step step : steps) arguments(text, step, inner, findings);
            return new StaticType.Unknown("the result of '" + root.name() + "'");
        }
        // The longest prefix that names a class: Runtime, java.lang.Runtime, java.util.Map.Entry.
        for (int k = steps.size(); k >= 1; k--) {
            if (steps.subList(0, k - 1).stream().anyMatch(s -> s.call() || s.index())) continue;
            String name = String.join(".", steps.subList(0, k).stream().map(MvelChain.Step::name).toList());
            if (k == 1 && (name.startsWith("$") || isValueName(name, scope))) break;
            Class<?> type = classes.classOf(name);
            if (type == null) continue;
            if (!allowList.permitsType(type.getName())) {
                findings.add(new Finding(root.offset(), type.getName(), "not on the allow-list"));
                return new StaticType.Unknown(type.getName());
            }
            MvelChain.Step last = steps.get(k - 1);
            if (!scope.typed) return untypedMember(type, steps, k, findings);
            StaticType known = StaticType.Known.of(type);
            if (last.call()) { // new X(...), or the pattern X(...)
                arguments(text, last, constructor ? scope : scope.inPattern(known), findings);
                return walk(text, chain, known, k, scope, findings);
            }
            return walk(text, chain, constructor ? known : new StaticType.ClassRef(type), k, scope, findings);
        }
        if (!scope.typed) {
            for (MvelChain.Step step : steps) arguments(text, step, scope, findings);
            return new StaticType.Unknown("eval");
        }
        StaticType start = root(text, root, scope, findings);
        return start == null ? null : walk(text, chain, start, 1, scope, findings);
    }

    /** The type the chain's first step leads to (its arguments checked), or null when a finding was made. */
    private StaticType root(String text, MvelChain.Step root, MvelScope scope, List<Finding> findings) {
        String name = root.name();
        StaticType variable = scope.variable(name);
        if (name.equals("this") && scope.pattern != null) return scope.pattern;
        if (name.startsWith("$") || variable != null && scope.pattern == null) {
            arguments(text, root, scope, findings);
            return variable != null ? variable : new StaticType.Unknown("the binding " + name + ", used before it is bound");
        }
        if (scope.pattern != null) {
            arguments(text, root, scope, findings);
            MemberResolver.Result member = root.call() ? members.call(scope.pattern, name, root.arity()) : members.property(scope.pattern, name);
            if (!member.absent()) return refused(member, root, findings) ? null : member.type();
        }
        if (variable != null) return variable;
        DeclaredTypes.Declaration type = declared.get(name);
        if (type != null) {
            StaticType instance = new StaticType.Declared(type);
            if (root.call()) arguments(text, root, scope.inPattern(instance), findings); // the pattern Member(...)
            return root.call() ? instance : new StaticType.DeclaredRef(type);
        }
        arguments(text, root, scope, findings);
        if (root.call()) {
            StaticType function = scope.function(name);
            if (function instanceof StaticType.ClassRef imported) { // import function a.b.C.m
                MemberResolver.Result call = members.call(imported, name, root.arity());
                return refused(call, root, findings) ? null : call.type();
            }
            if (function != null) return function;
            Class<?> accumulated = ACCUMULATE.get(name);
            if (accumulated != null) return StaticType.Known.of(accumulated);
            return new StaticType.Unknown("the result of " + name + "(...), which is no function of the package");
        }
        if (scope.template) return StaticType.VALUE; // one of the rule's variables (ApplyTemplate's vars: values)
        return new StaticType.Unknown("the name " + name + ", which is no field of the pattern, binding, global, class or declared type");
    }

    /** Resolves steps {@code from..} on {@code type}; the type reached, or an Unknown after a finding. */
    private StaticType walk(String text, MvelChain chain, StaticType type, int from, MvelScope scope, List<Finding> findings) {
        for (int k = from; k < chain.steps().size(); k++) {
            MvelChain.Step step = chain.steps().get(k);
            int before = findings.size();
            arguments(text, step, scope, findings);
            if (findings.size() > before) return new StaticType.Unknown("a refused argument"); // said once, where it is
            if (step.call() && REGEX_METHODS.contains(step.name()) && takesRegex(type, step.name())) {
                regexArgument(text, step, findings);
            }
            MemberResolver.Result result = step.index() ? members.index(type)
                    : step.call() ? members.call(type, step.name(), step.arity()) : members.property(type, step.name());
            if (refused(result, step, findings)) return new StaticType.Unknown("a refused member");
            type = result.type();
        }
        return type;
    }

    /** Whether {@code name} called on {@code type} takes a regular expression first: String's, or Pattern's static ones. */
    private static boolean takesRegex(StaticType type, String name) {
        if (type instanceof StaticType.Union union) return union.members().stream().anyMatch(t -> takesRegex(t, name));
        if (type instanceof StaticType.Known known) return known.raw() == String.class && !name.equals("compile");
        return type instanceof StaticType.ClassRef ref && ref.raw() == java.util.regex.Pattern.class
                && (name.equals("compile") || name.equals("matches"));
    }

    /** The operand after {@code matches} at {@code i}: a string literal of an allowed shape. */
    private void regexOperand(String text, int i, int to, List<Finding> findings) {
        int j = i;
        while (j < to && Character.isWhitespace(text.charAt(j))) j++;
        regexLiteral(text, j, to, findings);
    }

    private void regexArgument(String text, MvelChain.Step step, List<Finding> findings) {
        int j = step.argsFrom();
        while (j < step.argsTo() && Character.isWhitespace(text.charAt(j))) j++;
        regexLiteral(text, j, step.argsTo(), findings);
    }

    /**
     * A regular expression in MVEL is matched inside a JDK call that no budget check reaches: it must be
     * a string literal ({@link RegexShape} then refuses the shapes that backtrack for ages).
     */
    private void regexLiteral(String text, int at, int to, List<Finding> findings) {
        char quote = at < to ? text.charAt(at) : 0;
        int end = quote == '"' || quote == '\'' ? MvelChain.skipString(text, at) : -1;
        int after = Math.max(end, at);
        while (after < to && Character.isWhitespace(text.charAt(after))) after++;
        boolean literal = end > at && (after >= to || "+.[".indexOf(text.charAt(after)) < 0);
        if (!literal) {
            findings.add(new Finding(at, "a computed regular expression", "a regular expression in a condition or a template "
                    + "must be a string literal (it is matched where no budget reaches); match a computed one in a DRL function"));
            return;
        }
        String regex = text.substring(at + 1, end - 1).replace("\\\\", "\\"); // DRL strings escape a backslash
        String problem = RegexShape.problem(regex);
        if (problem != null) {
            findings.add(new Finding(at, "the regular expression " + text.substring(at, end), "not allowed in rules: it has "
                    + problem + ", which can make matching take exponential time; write it without"));
        }
    }

    private boolean refused(MemberResolver.Result result, MvelChain.Step step, List<Finding> findings) {
        if (!result.isRefused()) return false;
        findings.add(new Finding(step.offset(), result.what(), result.reason()));
        return true;
    }

    /** Inside eval(...) (Java, checked as bytecode): a chain rooted at a class is checked on its first member only. */
    private StaticType untypedMember(Class<?> type, List<MvelChain.Step> steps, int k, List<Finding> findings) {
        if (k < steps.size() && !steps.get(k).index() && !allowList.permitsMember(type.getName(), steps.get(k).name())) {
            findings.add(new Finding(steps.get(k).offset(), type.getName() + "." + steps.get(k).name(), "not on the allow-list"));
        }
        return new StaticType.Unknown("eval");
    }

    private void arguments(String text, MvelChain.Step step, MvelScope scope, List<Finding> findings) {
        if (step.call() || step.index()) scan(text, step.argsFrom(), step.argsTo(), scope, findings);
    }

    /** A bare name that is a value here (a field of the pattern, a binding, a template variable), not a class. */
    private boolean isValueName(String name, MvelScope scope) {
        if (scope.variable(name) != null) return true;
        return scope.pattern != null && !members.property(scope.pattern, name).absent();
    }

    /** The index after the ':' (or ':=') of a binding that follows {@code i}, else -1. */
    private static int bindingColon(String text, int i, int to) {
        int j = i;
        while (j < to && Character.isWhitespace(text.charAt(j))) j++;
        if (j >= to || text.charAt(j) != ':' || j + 1 < to && text.charAt(j + 1) == ':') return -1;
        return j + 1 < to && text.charAt(j + 1) == '=' ? j + 2 : j + 1;
    }

    private static boolean startsMember(String text, int i, int to) {
        return i + 1 < to && text.charAt(i) == '.' && Character.isJavaIdentifierStart(text.charAt(i + 1));
    }

    private static char previousNonBlank(String text, int i) {
        for (int j = i - 1; j >= 0; j--) {
            if (!Character.isWhitespace(text.charAt(j))) return text.charAt(j);
        }
        return 0;
    }
}
