package dev.runbook.engine.compile;

import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.problem.Problem;
import dev.runbook.engine.template.TemplateSet;
import org.kie.api.KieBase;

import java.util.List;

/**
 * A bundle compiled once: its spec, its rules as a Drools KieBase, its templates, and a version
 * that is a hash of its content. Immutable and safe to share: every cycle opens its own session.
 */
public record CompiledBundle(
        BundleSpec spec,
        BundleSource source,
        String version,
        KieBase kieBase,
        TemplateSet templates,
        List<String> ruleNames,
        List<Problem> warnings) {

    public CompiledBundle {
        ruleNames = List.copyOf(ruleNames);
        warnings = List.copyOf(warnings);
    }

    public String name() { return spec.name(); }

    @Override
    public String toString() { return spec.name() + "@" + version; }
}
