package dev.runbook.engine.template;

import dev.runbook.engine.containment.RuleBudget;
import org.mvel2.integration.impl.MapVariableResolverFactory;
import org.mvel2.templates.CompiledTemplate;
import org.mvel2.templates.TemplateRuntime;
import org.mvel2.templates.util.TemplateOutputStream;

import java.util.Map;

/**
 * Renders a compiled template so that the cycle's budget is checked as it goes: MVEL interprets a
 * template, so there is no bytecode to instrument, but everything it writes passes through here, and
 * each piece makes a (sampled) budget check. A {@code @foreach{}} writes its body through the output
 * at every item, an empty body included, so loops however nested (and a {@code @foreach{i : n}} that
 * counts to n) reach a check at every item and stop at the cycle's deadline; what rendering allocated
 * is measured as soon as it ends ({@code ContainedRun.template}).
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
