package dev.runbook.engine.template;

import dev.runbook.engine.containment.RuleBudget;
import org.mvel2.integration.VariableResolverFactory;
import org.mvel2.templates.TemplateRuntime;
import org.mvel2.templates.res.CompiledForEachNode;
import org.mvel2.templates.res.IfNode;
import org.mvel2.templates.res.Node;
import org.mvel2.templates.util.TemplateOutputStream;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Puts a budget check at the start of the body of every {@code @foreach{}} of a compiled template:
 * the only loop a template has, so rendering reaches a check at every item and stops at the cycle's
 * deadline however the loops nest (and whether or not their bodies write anything). MVEL interprets
 * templates; there is no bytecode to instrument, so the check is a node of the template itself.
 */
final class LoopChecks {
    private LoopChecks() {}

    static boolean isCheck(Node node) {
        return node instanceof Check;
    }

    static void insert(Node root) {
        visit(root, Collections.newSetFromMap(new IdentityHashMap<>()));
    }

    private static void visit(Node node, Set<Node> seen) {
        for (Node n = node; n != null && seen.add(n); n = n.getNext()) {
            if (n instanceof IfNode branch) {
                visit(branch.getTrueNode(), seen);
                visit(branch.getElseNode(), seen);
            } else if (n instanceof CompiledForEachNode loop) {
                visit(loop.getNestedNode(), seen);
                loop.setNestedNode(new Check(loop.getNestedNode()));
            }
        }
    }

    /** Checks the budget, then renders the body it stands before. */
    private static final class Check extends Node {
        Check(Node body) {
            this.next = body;
        }

        @Override
        public Object eval(TemplateRuntime runtime, TemplateOutputStream appender, Object ctx, VariableResolverFactory factory) {
            RuleBudget.check();
            return next == null ? null : next.eval(runtime, appender, ctx, factory);
        }

        @Override
        public boolean demarcate(Node terminatingNode, char[] template) {
            return false;
        }
    }
}
