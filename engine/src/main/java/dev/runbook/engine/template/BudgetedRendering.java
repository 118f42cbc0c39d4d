package dev.runbook.engine.template;

import dev.runbook.engine.containment.RuleBudget;
import org.mvel2.integration.impl.MapVariableResolverFactory;
import org.mvel2.templates.CompiledTemplate;
import org.mvel2.templates.TemplateRuntime;
import org.mvel2.templates.util.TemplateOutputStream;

import java.util.Map;

/**
 * Renders a compiled template so that the cycle's budget is checked as it goes: every item of every
 * loop ({@link LoopChecks}) and every piece of output makes a (sampled) budget check, so rendering
 * stops at the cycle's deadline, and what it allocated is measured, like rule code.
 */
final class BudgetedRendering {
    private BudgetedRendering() {}

    static String render(CompiledTemplate template, Map<String, Object> vars) {
        StringBuilder text = new StringBuilder();
        TemplateRuntime.execute(template, null, new MapVariableResolverFactory(vars), null, new Output(text));
        return text.toString();
    }

    private record Output(StringBuilder text) implements TemplateOutputStream {
        @Override
        public TemplateOutputStream append(CharSequence c) {
            RuleBudget.check();
            text.append(c);
            return this;
        }

        @Override
        public TemplateOutputStream append(char[] c) {
            RuleBudget.check();
            text.append(c);
            return this;
        }
    }
}
