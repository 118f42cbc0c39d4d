package dev.runbook.rules.action;

import dev.runbook.rules.fact.Values;

import java.util.List;
import java.util.Map;

/**
 * Apply the object rendered from one of the bundle's templates. Rules add this; the engine renders
 * the template (with the primary resource, the parameters and {@code vars}) and puts an
 * {@link Apply} in the plan in its place, so a plan never holds an unrendered template.
 */
public final class ApplyTemplate extends Action {
    private final String template;
    private final Map<String, Object> vars;

    public ApplyTemplate(String template, Map<String, ?> vars) {
        super(null);
        if (template == null || template.isBlank()) {
            throw new IllegalArgumentException("applyTemplate needs a template name, e.g. \"statefulset.yaml\"");
        }
        this.template = template;
        this.vars = vars == null ? Map.of() : Values.frozenMap(vars);
    }

    @Override public String getType() { return "applyTemplate"; }
    public String getTemplate() { return template; }
    public Map<String, Object> getVars() { return vars; }

    @Override
    public String identity() { return "applyTemplate " + template + (vars.isEmpty() ? "" : " " + vars); }

    @Override
    public List<FieldWrite> writes() { return List.of(); }

    @Override
    protected void describe(Map<String, Object> into) {
        into.put("template", template);
        if (!vars.isEmpty()) into.put("vars", vars);
    }
}
