package dev.runbook.engine.explain;

import dev.runbook.engine.compile.DrlParsing;
import dev.runbook.engine.containment.ParsedDrl;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import org.drools.drl.ast.descr.AndDescr;
import org.drools.drl.ast.descr.BaseDescr;
import org.drools.drl.ast.descr.ExistsDescr;
import org.drools.drl.ast.descr.ExprConstraintDescr;
import org.drools.drl.ast.descr.ImportDescr;
import org.drools.drl.ast.descr.NotDescr;
import org.drools.drl.ast.descr.PackageDescr;
import org.drools.drl.ast.descr.PatternDescr;
import org.drools.drl.ast.descr.RuleDescr;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A rule's conditions, read from Drools' own parse tree of the bundle's DRL (the trees the bundle was
 * built from, {@link DrlParsing}), with
 * each condition's text and place as written: what an explanation re-evaluates, one constraint more at
 * a time ({@link ConditionQueries}).
 */
public final class RuleConditions {
    private RuleConditions() {}

    /**
     * The rule named {@code name} in the bundle's DRL files (path to text), empty when none has that name.
     *
     * @throws InvalidInputException when a file does not parse (a compiled bundle's files always do)
     */
    public static Optional<ParsedRule> find(Map<String, String> drl, String name) {
        List<Problem> problems = new ArrayList<>();
        List<ParsedDrl> parsed = DrlParsing.parse(drl, problems);
        if (parsed == null) throw new InvalidInputException(problems);
        for (ParsedDrl file : parsed) {
            PackageDescr pkg = file.descr();
            for (RuleDescr rule : pkg.getRules()) {
                if (rule.isQuery() || !rule.getName().equals(name)) continue;
                return Optional.of(new ParsedRule(rule.getName(), file.file(), lineOf(file.text(), rule.getStartCharacter()),
                        pkg.getName(), imports(pkg), conditions(rule.getLhs(), file.text())));
            }
        }
        return Optional.empty();
    }

    private static List<String> imports(PackageDescr pkg) {
        List<String> imports = new ArrayList<>();
        for (ImportDescr i : pkg.getImports()) imports.add("import " + i.getTarget());
        for (ImportDescr i : pkg.getFunctionImports()) imports.add("import function " + i.getTarget());
        for (ImportDescr i : pkg.getAccumulateImports()) imports.add("import accumulate " + i.getTarget());
        return imports;
    }

    private static List<Condition> conditions(AndDescr lhs, String text) {
        List<Condition> conditions = new ArrayList<>();
        for (BaseDescr element : lhs.getDescrs()) conditions.add(condition(element, text));
        return conditions;
    }

    private static Condition condition(BaseDescr element, String text) {
        String written = textOf(element, text);
        int line = lineOf(text, element.getStartCharacter());
        if (element instanceof PatternDescr pattern) {
            return pattern(Condition.Kind.PATTERN, pattern, written, line, text);
        }
        if ((element instanceof NotDescr || element instanceof ExistsDescr)
                && ((org.drools.drl.ast.descr.ConditionalElementDescr) element).getDescrs().size() == 1
                && ((org.drools.drl.ast.descr.ConditionalElementDescr) element).getDescrs().get(0) instanceof PatternDescr inner) {
            Condition.Kind kind = element instanceof NotDescr ? Condition.Kind.NOT : Condition.Kind.EXISTS;
            Condition positive = pattern(kind, inner, textOf(inner, text), line, text);
            return new Condition(written, line, positive.kind(), null, positive.type(), positive.constraints(), positive.tail());
        }
        return other(written, line);
    }

    /** A pattern taken apart, or whole ({@link Condition.Kind#OTHER}) when its text is not {@code [$x :] Type(...) tail}. */
    private static Condition pattern(Condition.Kind kind, PatternDescr pattern, String written, int line, String text) {
        String rest = written;
        String identifier = pattern.getIdentifier();
        if (identifier != null) {
            int colon = rest.indexOf(':');
            if (!rest.startsWith(identifier) || colon < 0 || !rest.substring(identifier.length(), colon).isBlank()) {
                return other(written, line);
            }
            rest = rest.substring(colon + 1).stripLeading();
        }
        String type = pattern.getObjectType();
        if (type == null || !rest.startsWith(type)) return other(written, line);
        String afterType = rest.substring(type.length()).stripLeading();
        if (!afterType.startsWith("(")) return other(written, line);
        int close = closing(afterType, 0);
        if (close < 0) return other(written, line);
        List<Condition.Constraint> constraints = new ArrayList<>();
        for (BaseDescr descr : pattern.getDescrs()) {
            if (!(descr instanceof ExprConstraintDescr expr) || expr.getType() == ExprConstraintDescr.Type.POSITIONAL) {
                return other(written, line);
            }
            constraints.add(new Condition.Constraint(expr.getExpression().strip(), lineOf(text, descr.getStartCharacter())));
        }
        String tail = afterType.substring(close + 1).stripTrailing();
        return new Condition(written, line, kind, identifier, type, constraints, tail.isEmpty() ? "" : " " + tail.strip());
    }

    private static Condition other(String written, int line) {
        return new Condition(written, line, Condition.Kind.OTHER, null, null, List.of(), "");
    }

    /** The index of the parenthesis that closes the one at {@code open}, skipping string literals; -1 if none. */
    static int closing(String text, int open) {
        int depth = 0;
        for (int i = open; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < text.length() && text.charAt(j) != c) j += text.charAt(j) == '\\' ? 2 : 1;
                i = j;
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    private static String textOf(BaseDescr descr, String text) {
        int start = Math.max(0, descr.getStartCharacter());
        int end = Math.min(text.length(), descr.getEndCharacter() + 1);
        return end <= start ? descr.getText() : text.substring(start, end).strip();
    }

    static int lineOf(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset && i < text.length(); i++) {
            if (text.charAt(i) == '\n') line++;
        }
        return line;
    }
}
