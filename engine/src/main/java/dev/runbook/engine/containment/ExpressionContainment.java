package dev.runbook.engine.containment;

import dev.runbook.engine.problem.Problem;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    private static final Pattern TEMPLATE_HOLE = Pattern.compile("@(\\w*)\\{");
    private static final List<String> TEMPLATE_EXPRESSIONS = List.of("", "if", "elseif", "else", "foreach", "end", "comment");

    private ExpressionContainment() {}

    /** Problems in the DRL files' conditions and dialects, as {@code rules/x.drl:LINE:COL: ...}. */
    public static List<Problem> checkRules(Map<String, String> drl, AllowList allowList) {
        List<Problem> problems = new ArrayList<>();
        drl.forEach((file, text) -> {
            String code = Comments.blank(text);
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
            Matcher staticImport = STATIC_IMPORT.matcher(code);
            while (staticImport.find()) {
                String className = staticImport.group(1);
                String member = staticImport.group(2);
                boolean allowed = member.equals("*") ? allowList.permitsClass(className) : allowList.permitsMember(className, member);
                // A class the engine cannot load is the bundle's own (a function of another of its packages): bytecode, checked as such.
                if (!allowed && classNames("").resolve(className) != null) {
                    problems.add(at(file, text, staticImport.start(1), className + "." + member + " is not allowed in rules: "
                            + "not on the allow-list (see docs/security.md for what rules may call)"));
                }
            }
            MvelExpressionCheck check = new MvelExpressionCheck(allowList, classNames(code), name -> name.startsWith("$"), false);
            Matcher conditions = CONDITIONS.matcher(code);
            while (conditions.find()) {
                int group = conditions.group(1) != null ? 1 : conditions.group(2) != null ? 2 : 3;
                String lhs = conditions.group(group);
                for (MvelExpressionCheck.Finding f : check.check(lhs)) {
                    problems.add(at(file, text, conditions.start(group) + f.offset(), message(f)));
                }
            }
        });
        return problems;
    }

    /** Problems in the templates' expressions, as {@code templates/x.yaml:LINE:COL: ...}. */
    public static List<Problem> checkTemplates(Map<String, String> templates, AllowList allowList) {
        List<Problem> problems = new ArrayList<>();
        MvelExpressionCheck check = new MvelExpressionCheck(allowList, classNames(""), name -> false, true);
        templates.forEach((file, text) -> {
            Matcher hole = TEMPLATE_HOLE.matcher(text);
            while (hole.find()) {
                if (!TEMPLATE_EXPRESSIONS.contains(hole.group(1))) {
                    problems.add(at(file, text, hole.start(), "@" + hole.group(1) + "{} is not allowed in templates: "
                            + "use @{expression}, @if{}, @foreach{} and @end{}"));
                    continue;
                }
                int end = closingBrace(text, hole.end());
                String expression = text.substring(hole.end(), end);
                for (MvelExpressionCheck.Finding f : check.check(expression)) {
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
