package dev.runbook.engine.compile;

import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.DecidingBundle;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.policy.Policy;
import dev.runbook.engine.problem.Problem;
import dev.runbook.engine.template.TemplateSet;
import org.kie.api.KieBase;
import org.kie.api.runtime.KieSessionsPool;

import java.util.List;

/**
 * A bundle compiled once: its spec, its rules as a Drools KieBase, its templates, and a version
 * that is a hash of its content. Safe to share: every cycle borrows its own session from
 * {@code sessions}, a pool of sessions of this KieBase that Drools resets when a cycle disposes
 * one, so a cycle pays for inserting and firing but not for building the session's rule network.
 * The pool lives and dies with the bundle: a reload starts a new one. It decides in this process.
 */
public record CompiledBundle(
        BundleSpec spec,
        BundleSource source,
        String version,
        KieBase kieBase,
        TemplateSet templates,
        List<String> ruleNames,
        List<Problem> warnings,
        KieSessionsPool sessions) implements DecidingBundle {

    /** Sessions built up front; the pool grows to as many as cycles run at once, and keeps them. */
    public static final int POOLED_SESSIONS = 1;

    public CompiledBundle(BundleSpec spec, BundleSource source, String version, KieBase kieBase, TemplateSet templates,
                          List<String> ruleNames, List<Problem> warnings) {
        this(spec, source, version, kieBase, templates, ruleNames, warnings, kieBase.newKieSessionsPool(POOLED_SESSIONS));
    }

    public CompiledBundle {
        ruleNames = List.copyOf(ruleNames);
        warnings = List.copyOf(warnings);
    }

    @Override
    public String name() { return spec.name(); }

    @Override
    public Decision decide(Observation observation, Policy policy) {
        return DecisionCycle.run(this, observation, policy);
    }

    @Override
    public String toString() { return spec.name() + "@" + version; }
}
