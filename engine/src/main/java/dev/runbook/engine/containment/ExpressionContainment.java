package dev.runbook.engine.containment;

import dev.runbook.engine.problem.Problem;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The MVEL half of containment: the attributes and conditions of every rule and query (patterns,
 * {@code from}, {@code accumulate}), declared types' default values, and every template expression are checked with {@link MvelExpressionCheck}
 * before Drools or MVEL compile them; a rule in the MVEL dialect (an interpreted consequence) is
 * refused, since only Java consequences have bytecode to check and instrument.
 */
public final class ExpressionContainment {
    private static final Pattern IMPORT = Pattern.compile("(?m)^\\s*import\\s+(?!static\\s|function\\s)([\\w.$*]+)");
    /** import function a.b.C.m / import static a.b.C.m: the name m then calls C.m from any condition. */
    private static final Pattern STATIC_IMPORT = Pattern.compile("(?m)^\\s*import\\s+(?:static|function)\\s+([\\w.$]+)\\.([\\w*]+)");
    /**
     * Every MVEL a DRL file holds outside consequences and functions: a rule's attributes (salience,
     * timer, enabled...), its conditions, a query's, and a declared type's fields with their defaults.
     */
    private static final Pattern CONDITIONS = Pattern.compile("(?ms)^\\s*rule\\b[^\\n]*\\n(.*?)^\\s*then\\b"
            + "|^\\s*query\\b[^\\n]*\\n(.*?)^\\s*end\\b|^\\s*declare\\b[^\\n]*\\n(.*?)^\\s*end\\b");
    private static final Pattern MVEL_DIALECT = Pattern.compile("\\bdialect\\s+[\"']mvel[\"']");
    /** accumulate( ...; init(...), action(...), ...): Java code inside Drools' own invoker, not checked there. */
    private static final Pattern INLINE_ACCUMULATE = Pattern.compile("\\baccumulate\\s*\\((?:[^;]*;)?\\s*init\\s*\\(");
    private static final Pattern FUNCTION = Pattern.compile("(?m)^\\s*function\\s+([\\w.$<>\\[\\], ]+?)\\s+(\\w+)\\s*\\(");
    private static final Pattern GLOBAL = Pattern.compile("(?m)^\\s*global\\s+([\\w.$<>\\[\\], ]+?)\\s+(\\w+)");
    private static final Pattern FOREACH = Pattern.compile("(?s)\\s*(\\w+)\\s*:(.*)");
    private static final Pattern TEMPLATE_HOLE = Pattern.compile("@(\\w*)\\{");
    private static final List<String> TEMPLATE_EXPRESSIONS = List.of("", "if", "elseif", "else", "foreach", "end", "comment");

    private ExpressionContainment() {}

    /** Problems in the DRL files' conditions and dialects, as {@code rules/x.drl:LINE:COL: ...}. */
    public static List<Problem> checkRules(Map<String, String> drl, AllowList allowList) {
        List<Problem> problems = new ArrayList<>();
        Map<String, String> blanked = new LinkedHashMap<>();
        Map<String, ClassNames> names = new LinkedHashMap<>();
        drl.forEach((file, text) -> {
            blanked.put(file, Comments.blank(text));
            names.put(file, classNames(blanked.get(file)));
        });
        DeclaredTypes declared = new DeclaredTypes(blanked, names);
        MemberResolver members = new MemberResolver(allowList, declared, Set.of());
        drl.forEach((file, text) -> {
            String code = blanked.get(file);
            Matcher dialect = MVEL_DIALECT.matcher(code);
            while (dialect.find()) {
                problems.add(at(file, text, dialect.start(), "dialect \"mvel\" is not allowed: a consequence in MVEL "
                        + "is interpreted and cannot be checked or bounded; write it in Java (the default dialect)"));
            }
            Matcher inline = INLINE_ACCUMULATE.matcher(code);
            while (inline.find()) {
                problems.add(at(file, text, inline.start(), "accumulate with init/action/result code is not allowed: "
                        + "use an accumulate function (count, sum, min, max, collectList, ...) or a DRL function"));
            }
            ClassNames classes = names.get(file);
            Map<String, StaticType> functions = new HashMap<>();
            Matcher staticImport = STATIC_IMPORT.matcher(code);
            while (staticImport.find()) {
                String className = staticImport.group(1);
                String member = staticImport.group(2);
                boolean allowed = member.equals("*") ? allowList.permitsClass(className) : allowList.permitsMember(className, member);
                // A class the engine cannot load is the bundle's own (a function of another of its packages): bytecode, checked as such.
                Class<?> type = classes.classOf(className);
                if (!allowed && type != null) {
                    problems.add(at(file, text, staticImport.start(1), className + "." + member + " is not allowed in rules: "
                            + "not on the allow-list (see docs/security.md for what rules may call)"));
                }
                if (type != null && !member.equals("*")) functions.put(member, new StaticType.ClassRef(type));
            }
            Matcher function = FUNCTION.matcher(code);
            while (function.find()) functions.put(function.group(2), declared.typeNamed(function.group(1), classes));
            Map<String, StaticType> globals = new HashMap<>();
            Matcher global = GLOBAL.matcher(code);
            while (global.find()) globals.put(global.group(2), declared.typeNamed(global.group(1), classes));
            MvelExpressionCheck check = new MvelExpressionCheck(allowList, classes, declared, members, false);
            Matcher conditions = CONDITIONS.matcher(code);
            while (conditions.find()) {
                int group = conditions.group(1) != null ? 1 : conditions.group(2) != null ? 2 : 3;
                String lhs = conditions.group(group);
                // A rule's bindings reach across its patterns; a declared type's defaults see no bindings.
                for (MvelExpressionCheck.Finding f : check.check(lhs, MvelScope.rule(globals, functions))) {
                    problems.add(at(file, text, conditions.start(group) + f.offset(), message(f)));
                }
            }
        });
        return problems;
    }

    /**
     * Problems in the templates' expressions, as {@code templates/x.yaml:LINE:COL: ...}.
     *
     * @param variables the variables the renderer passes besides the rule's own, with their types
     */
    public static List<Problem> checkTemplates(Map<String, String> templates, AllowList allowList, Map<String, Class<?>> variables) {
        List<Problem> problems = new ArrayList<>();
        Map<String, StaticType> known = new HashMap<>();
        variables.forEach((name, type) -> known.put(name, StaticType.Known.of(type)));
        Set<Class<?>> trusted = new HashSet<>();
        variables.values().forEach(type -> {
            if (!allowList.permitsType(type.getName())) trusted.add(type); // the engine's own helper (yaml.quote)
        });
        MemberResolver members = new MemberResolver(allowList, new DeclaredTypes(Map.of(), Map.of()), trusted);
        MvelExpressionCheck check = new MvelExpressionCheck(allowList, classNames(""), new DeclaredTypes(Map.of(), Map.of()), members, true);
        templates.forEach((file, text) -> {
            MvelScope scope = MvelScope.template(known);
            Matcher hole = TEMPLATE_HOLE.matcher(text);
            while (hole.find()) {
                if (!TEMPLATE_EXPRESSIONS.contains(hole.group(1))) {
                    problems.add(at(file, text, hole.start(), "@" + hole.group(1) + "{} is not allowed in templates: "
                            + "use @{expression}, @if{}, @foreach{} and @end{}"));
                    continue;
                }
                int end = closingBrace(text, hole.end());
                String expression = text.substring(hole.end(), end);
                List<MvelExpressionCheck.Finding> findings = new ArrayList<>();
                Matcher foreach = FOREACH.matcher(expression);
                if (hole.group(1).equals("foreach") && foreach.matches()) {
                    // @foreach{item : collection}: item holds an element of the collection.
                    String collection = " ".repeat(foreach.start(2)) + foreach.group(2);
                    StaticType type = check.check(collection, scope, findings);
                    scope.bind(foreach.group(1), type == null ? null : StaticType.elementOf(type));
                } else {
                    check.check(expression, scope, findings);
                }
                for (MvelExpressionCheck.Finding f : findings) {
                    problems.add(at(file, text, hole.end() + f.offset(), message(f)));
                }
            }
        });
        return problems;
    }

    private static String message(MvelExpressionCheck.Finding f) {
        return f.reason().startsWith("not on")
                ? f.what() + " is not allowed in rules: not on the allow-list (see docs/security.md for what rules may call)"
                : f.what() + ": " + f.reason();
    }

    private static ClassNames classNames(String drl) {
        List<String> imports = new ArrayList<>();
        Matcher m = IMPORT.matcher(drl);
        while (m.find()) imports.add(m.group(1));
        return new ClassNames(imports, ExpressionContainment.class.getClassLoader());
    }

    private static int closingBrace(String text, int from) {
        int depth = 1;
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < text.length() && text.charAt(j) != c) j += text.charAt(j) == '\\' ? 2 : 1;
                i = j;
            } else if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        return text.length();
    }

    private static Problem at(String file, String text, int offset, String message) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new Problem(file, line, offset - lineStart + 1, message);
    }
}
