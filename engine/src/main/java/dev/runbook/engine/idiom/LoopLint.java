package dev.runbook.engine.idiom;

import dev.runbook.engine.containment.ParsedDrl;
import dev.runbook.engine.problem.Problem;
import org.drools.drl.ast.descr.RuleDescr;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A lint warning: a loop ({@code for}, {@code while}, {@code do}) in a rule's consequence. A consequence
 * only adds actions and facts; what needs a loop (joining messages, the largest of several holds) is a
 * tested function of the vocabulary, or a pattern ({@code accumulate}) the engine explains.
 */
final class LoopLint {
    private static final Pattern LOOP = Pattern.compile("\\b(for|while)\\s*\\(|\\bdo\\s*\\{");

    private LoopLint() {}

    static List<Problem> check(ParsedDrl drl) {
        List<Problem> warnings = new ArrayList<>();
        for (RuleDescr rule : drl.descr().getRules()) {
            if (!(rule.getConsequence() instanceof String consequence)) continue;
            Matcher loop = LOOP.matcher(code(consequence));
            // The consequence's text as it stands in the file, from the line of its "then" on: where its loops are.
            int start = Math.max(0, drl.text().indexOf(consequence, lineStart(drl.text(), rule.getConsequenceLine())));
            while (loop.find()) {
                String before = drl.text().substring(0, start + loop.start());
                int line = 1 + (int) before.chars().filter(c -> c == '\n').count();
                int column = before.length() - before.lastIndexOf('\n');
                warnings.add(new Problem(drl.file(), line, column, "rule \"" + rule.getName()
                        + "\": a " + loop.group().replaceAll("[\\s({]", "") + " loop in the consequence: a consequence only adds actions; "
                        + "move the loop into a tested function of the vocabulary (docs/reference/idioms.md#loops)"));
            }
        }
        return warnings;
    }

    /** Where 1-based {@code line} of {@code text} starts. */
    private static int lineStart(String text, int line) {
        int at = 0;
        for (int i = 1; i < line && at >= 0; i++) at = text.indexOf('\n', at) + 1;
        return Math.max(0, at);
    }

    /** The consequence with string and character literals and comments blanked (lines and columns kept). */
    private static String code(String java) {
        StringBuilder out = new StringBuilder(java);
        int i = 0;
        while (i < out.length()) {
            char c = out.charAt(i);
            if (c == '"' || c == '\'') {
                int end = i + 1;
                while (end < out.length() && out.charAt(end) != c && out.charAt(end) != '\n') end += out.charAt(end) == '\\' ? 2 : 1;
                for (int k = i + 1; k < Math.min(end, out.length()); k++) out.setCharAt(k, ' ');
                i = end + 1;
            } else if (c == '/' && i + 1 < out.length() && (out.charAt(i + 1) == '/' || out.charAt(i + 1) == '*')) {
                String close = out.charAt(i + 1) == '/' ? "\n" : "*/";
                int end = out.indexOf(close, i + 2);
                end = end < 0 ? out.length() : end;
                for (int k = i; k < end; k++) if (out.charAt(k) != '\n') out.setCharAt(k, ' ');
                i = end + close.length();
            } else {
                i++;
            }
        }
        return out.toString();
    }
}
