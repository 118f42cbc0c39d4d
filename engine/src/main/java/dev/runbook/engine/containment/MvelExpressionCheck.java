package dev.runbook.engine.containment;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Checks MVEL expressions (DRL conditions, {@code from}, {@code accumulate}, templates) before they
 * are ever evaluated. MVEL is interpreted by reflection, so there is no bytecode to read: the check
 * walks the expression's name chains instead. A chain whose root is a class (imported, in
 * {@code java.lang}, or written fully qualified) must be on the allow-list; a chain may not step
 * into reflection ({@code getClass()}, {@code .class}) or a monitor method; and an expression may
 * hold no statements, loops or function definitions. What an allowed chain returns is a value type
 * of the vocabulary or the JDK allow-list, so it leads nowhere else.
 */
final class MvelExpressionCheck {
    /** One refused use, at an offset of the expression. */
    record Finding(int offset, String what, String reason) {}

    private static final Set<String> KEYWORDS = Set.of("while", "for", "foreach", "do", "until", "def", "function",
            "import", "new", "with", "assert", "return");
    private static final Set<String> REFLECTIVE = Set.of("getClass", "class", "wait", "notify", "notifyAll",
            "forName", "getClassLoader", "finalize");

    private final AllowList allowList;
    private final Predicate<String> isVariable;
    /** Templates: one expression, no statements; DRL conditions use ';' between accumulate's parts. */
    private final boolean oneExpression;
    private final ClassNames classes;

    /**
     * @param oneExpression refuse statements and blocks (templates)
     * @param isVariable true for a name the expression may read as a variable (a binding, a field of the pattern, a template variable)
     */
    MvelExpressionCheck(AllowList allowList, ClassNames classes, Predicate<String> isVariable, boolean oneExpression) {
        this.allowList = allowList;
        this.oneExpression = oneExpression;
        this.classes = classes;
        this.isVariable = isVariable;
    }

    List<Finding> check(String expression) {
        List<Finding> findings = new ArrayList<>();
        int i = 0;
        int n = expression.length();
        while (i < n) {
            char c = expression.charAt(i);
            if (c == '"' || c == '\'') {
                int end = skipString(expression, i);
                // x["class"]: MVEL reads an index as a property where it can; a reflective name is refused as a string too.
                String literal = expression.substring(i + 1, Math.max(i + 1, Math.min(end - 1, n)));
                if (REFLECTIVE.contains(literal) && previousNonBlank(expression, i) == '[') {
                    findings.add(new Finding(i + 1, literal, "reflection is not allowed in rules"));
                }
                i = end;
                continue;
            }
            if (oneExpression && (c == ';' || c == '{' || c == '}')) {
                findings.add(new Finding(i, String.valueOf(c), "a condition or template expression is one expression, not a block of statements"));
                i++;
                continue;
            }
            if (Character.isJavaIdentifierStart(c) && !(i > 0 && (expression.charAt(i - 1) == '.' || expression.charAt(i - 1) == '$'))) {
                int start = i;
                List<String> chain = new ArrayList<>();
                List<Integer> offsets = new ArrayList<>();
                while (true) {
                    int s = i;
                    while (i < n && Character.isJavaIdentifierPart(expression.charAt(i))) i++;
                    chain.add(expression.substring(s, i));
                    offsets.add(s);
                    int j = i;
                    while (j < n && expression.charAt(j) == ' ') j++;
                    if (j < n && expression.charAt(j) == '.' && j + 1 < n && Character.isJavaIdentifierStart(expression.charAt(j + 1))) {
                        i = j + 1;
                    } else if (j + 1 < n && expression.charAt(j) == '!' && expression.charAt(j + 1) == '.') {
                        i = j + 2; // MVEL's null-safe navigation
                    } else {
                        break;
                    }
                }
                checkChain(chain, offsets, start, findings);
                continue;
            }
            if (c == '.' && i + 1 < n && Character.isJavaIdentifierStart(expression.charAt(i + 1))) {
                // a member of a parenthesised value or a call's result: ).getClass()
                int s = i + 1;
                int e = s;
                while (e < n && Character.isJavaIdentifierPart(expression.charAt(e))) e++;
                String member = expression.substring(s, e);
                if (REFLECTIVE.contains(member)) findings.add(new Finding(s, member, "reflection is not allowed in rules"));
                i = e;
                continue;
            }
            i++;
        }
        return findings;
    }

    private void checkChain(List<String> chain, List<Integer> offsets, int start, List<Finding> findings) {
        String root = chain.get(0);
        if (KEYWORDS.contains(root)) {
            if (!root.equals("new")) {
                findings.add(new Finding(start, root, "'" + root + "' is not allowed in a condition or a template expression"));
            }
            return;
        }
        for (int k = 1; k < chain.size(); k++) {
            if (REFLECTIVE.contains(chain.get(k))) {
                findings.add(new Finding(offsets.get(k), chain.get(k), "reflection is not allowed in rules"));
                return;
            }
        }
        if (REFLECTIVE.contains(root)) {
            findings.add(new Finding(start, root, "reflection is not allowed in rules"));
            return;
        }
        if (isVariable.test(root)) return;
        // The longest prefix that names a class: Runtime, java.lang.Runtime, java.util.Map.Entry.
        for (int k = chain.size(); k >= 1; k--) {
            String name = String.join(".", chain.subList(0, k));
            String className = classes.resolve(name);
            if (className == null) continue;
            if (!allowList.permitsType(className)) {
                findings.add(new Finding(start, className, "not on the allow-list"));
            } else if (k < chain.size() && !allowList.permitsMember(className, chain.get(k))) {
                findings.add(new Finding(offsets.get(k), className + "." + chain.get(k), "not on the allow-list"));
            }
            return;
        }
    }

    private static char previousNonBlank(String text, int i) {
        for (int j = i - 1; j >= 0; j--) {
            if (!Character.isWhitespace(text.charAt(j))) return text.charAt(j);
        }
        return 0;
    }

    private static int skipString(String text, int i) {
        char quote = text.charAt(i);
        int j = i + 1;
        while (j < text.length() && text.charAt(j) != quote) {
            if (text.charAt(j) == '\\') j++;
            j++;
        }
        return j + 1;
    }
}
