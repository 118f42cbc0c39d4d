package dev.runbook.engine.containment;

import dev.runbook.engine.problem.Problem;
import org.mvel2.templates.CompiledTemplate;
import org.mvel2.templates.res.CommentNode;
import org.mvel2.templates.res.CompiledForEachNode;
import org.mvel2.templates.res.EndNode;
import org.mvel2.templates.res.ExpressionNode;
import org.mvel2.templates.res.IfNode;
import org.mvel2.templates.res.Node;
import org.mvel2.templates.res.TerminalExpressionNode;
import org.mvel2.templates.res.TerminalNode;
import org.mvel2.templates.res.TextNode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The first line's check of a bundle's templates: every node of each template as MVEL's own template
 * compiler built it (the compiled templates that render), whichever orb it was written with
 * ({@code @{}} or {@code ${}}). Expressions ({@code {...}}), conditions ({@code if}, {@code elseif},
 * {@code else}), a {@code foreach}'s collection and the separator its {@code end} evaluates are
 * checked as one MVEL expression each ({@link MvelExpressionCheck}); code, eval, declare and include
 * nodes, and any node the check does not know, are refused.
 */
public final class TemplateCheck {
    private static final Pattern FOREACH = Pattern.compile("(?s)\\s*(\\w+)\\s*:(.*)");

    private TemplateCheck() {}

    /**
     * Problems in the templates, as {@code templates/x.yaml:LINE:COL: ...}.
     *
     * @param files     the template files by path ({@code templates/x.yaml})
     * @param compiled  the compiled templates by name (the path under {@code templates/}); a file that did not compile is not here
     * @param variables the variables the renderer passes besides the rule's own, with their types
     * @param engine    the nodes the engine itself added (budget checks), read past
     */
    public static List<Problem> check(Map<String, String> files, Map<String, CompiledTemplate> compiled, String directory,
                                      AllowList allowList, Map<String, Class<?>> variables, Predicate<Node> engine) {
        Map<String, StaticType> known = new HashMap<>();
        variables.forEach((name, type) -> known.put(name, StaticType.Known.of(type)));
        Set<Class<?>> trusted = new HashSet<>();
        variables.values().forEach(type -> {
            if (!allowList.permitsType(type.getName())) trusted.add(type); // the engine's own helper (yaml.quote)
        });
        DeclaredTypes none = new DeclaredTypes();
        MemberResolver members = new MemberResolver(allowList, none, trusted);
        MvelExpressionCheck check = new MvelExpressionCheck(allowList, new ClassNames(List.of(), TemplateCheck.class.getClassLoader()),
                none, members, true);
        List<Problem> problems = new ArrayList<>();
        files.forEach((file, text) -> {
            CompiledTemplate template = compiled.get(file.substring(directory.length()));
            if (template == null) return;
            new Walk(file, text, check, MvelScope.template(known), engine, problems).nodes(template.getRoot());
        });
        return problems;
    }

    private static final class Walk {
        private final String file;
        private final String text;
        private final MvelExpressionCheck check;
        private final MvelScope scope;
        private final Predicate<Node> engine;
        private final List<Problem> problems;
        private final Set<Node> seen = Collections.newSetFromMap(new IdentityHashMap<>());

        Walk(String file, String text, MvelExpressionCheck check, MvelScope scope, Predicate<Node> engine, List<Problem> problems) {
            this.file = file;
            this.text = text;
            this.check = check;
            this.scope = scope;
            this.engine = engine;
            this.problems = problems;
        }

        void nodes(Node node) {
            for (Node n = node; n != null && seen.add(n); n = n.getNext()) one(n);
        }

        private void one(Node node) {
            if (node instanceof TextNode || node instanceof CommentNode || node instanceof EndNode || engine.test(node)) return;
            if (node instanceof ExpressionNode || node instanceof TerminalExpressionNode) {
                expression(node.getCStart(), node.getCEnd());
            } else if (node instanceof IfNode branch) {
                expression(node.getCStart(), node.getCEnd());
                nodes(branch.getTrueNode());
                nodes(branch.getElseNode());
            } else if (node instanceof CompiledForEachNode loop) {
                foreach(node);
                nodes(loop.getNestedNode());
            } else if (node instanceof TerminalNode) {
                // @end{separator}: evaluated between a foreach's items
                String separator = node.getContents() == null ? "" : new String(node.getContents());
                if (!separator.isBlank()) found(node.getCStart(), check.check(separator, scope));
            } else {
                // begin is the node's name, just after its orb (@ or $)
                int start = Math.max(0, node.getBegin() - 1);
                String orb = start < text.length() && text.charAt(start) == '$' ? "$" : "@";
                problems.add(at(start, orb + node.getName() + "{} is not allowed in templates: use " + orb
                        + "{expression}, " + orb + "if{}, " + orb + "foreach{} and " + orb + "end{}"));
            }
        }

        /** @foreach{item : collection}: item holds an element of the collection. */
        private void foreach(Node node) {
            String expression = text.substring(node.getCStart(), node.getCEnd());
            Matcher foreach = FOREACH.matcher(expression);
            if (!foreach.matches()) {
                expression(node.getCStart(), node.getCEnd());
                return;
            }
            List<MvelExpressionCheck.Finding> findings = new ArrayList<>();
            StaticType type = check.check(" ".repeat(foreach.start(2)) + foreach.group(2), scope, findings);
            found(node.getCStart(), findings);
            scope.bind(foreach.group(1), type == null ? null : StaticType.elementOf(type));
        }

        private void expression(int from, int to) {
            if (from < 0 || to > text.length() || from >= to) return;
            found(from, check.check(text.substring(from, to), scope));
        }

        private void found(int base, List<MvelExpressionCheck.Finding> findings) {
            for (MvelExpressionCheck.Finding f : findings) problems.add(at(base + f.offset(), MvelExpressionCheck.message(f)));
        }

        private Problem at(int offset, String message) {
            return DescrText.at(file, text, offset, message);
        }
    }
}
