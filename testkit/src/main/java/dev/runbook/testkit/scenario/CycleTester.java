package dev.runbook.testkit.scenario;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.plan.PlanYaml;
import dev.runbook.engine.state.ObservationBuilder;
import dev.runbook.engine.state.ObservedObject;
import dev.runbook.engine.state.StateFiles;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A fluent way to test a bundle's real {@code .drl} files from Java: given objects, fire one cycle,
 * assert on the rules that fired and the actions planned.
 *
 * <pre>
 * CycleTester.of(Path.of("runbooks/postgres-cluster"))
 *     .at("2026-11-30T09:00:00Z")
 *     .given(Path.of("runbooks/postgres-cluster/samples/primary-failed.yaml"))
 *     .fire()
 *     .assertFired("Start a failover when the primary has been not ready for longer than failoverDelay")
 *     .assertAction(Map.of("action", "setStatus", "path", "targetPrimary", "value", "pg-2"));
 * </pre>
 *
 * Each {@code given}, {@code at} and {@code param} returns a new tester, so a base tester can be shared.
 */
public final class CycleTester {
    private final CompiledBundle bundle;
    private final List<ObservedObject> objects;
    private final Instant now;
    private final Map<String, Object> params;

    private CycleTester(CompiledBundle bundle, List<ObservedObject> objects, Instant now, Map<String, Object> params) {
        this.bundle = bundle;
        this.objects = List.copyOf(objects);
        this.now = now;
        this.params = Map.copyOf(params);
    }

    public static CycleTester of(Path bundleDirectory) {
        return of(BundleCompiler.compile(BundleLoader.load(bundleDirectory)));
    }

    public static CycleTester of(CompiledBundle bundle) {
        return new CycleTester(bundle, List.of(), Instant.EPOCH, Map.of());
    }

    public CycleTester at(String time) {
        return new CycleTester(bundle, objects, Instant.parse(time), params);
    }

    public CycleTester param(String name, Object value) {
        Map<String, Object> more = new LinkedHashMap<>(params);
        more.put(name, value);
        return new CycleTester(bundle, objects, now, more);
    }

    /** Adds the objects of state files (multi-document YAML). */
    public CycleTester given(Path... stateFiles) {
        List<ObservedObject> more = new ArrayList<>(objects);
        more.addAll(StateFiles.read(List.of(stateFiles)));
        return new CycleTester(bundle, more, now, params);
    }

    /** Adds objects given as nested maps. */
    @SafeVarargs
    public final CycleTester given(Map<String, Object>... objectMaps) {
        List<ObservedObject> more = new ArrayList<>(objects);
        for (Map<String, Object> object : objectMaps) more.add(new ObservedObject(object, "(given)", 0));
        return new CycleTester(bundle, more, now, params);
    }

    public Fired fire() {
        return fire(dev.runbook.engine.policy.Policy.DEFAULT);
    }

    /** One cycle under an operator's policy: its plan check and the limits its rules run under. */
    public Fired fire(dev.runbook.engine.policy.Policy policy) {
        return new Fired(DecisionCycle.run(bundle, ObservationBuilder.build(bundle.spec(), objects, null, now, params), policy));
    }

    /** The outcome of one cycle, with assertions that throw {@link AssertionError} explaining the difference. */
    public record Fired(Decision decision) {
        public List<Map<String, Object>> actions() {
            return decision.actions().stream().map(PlanYaml::actionForm).toList();
        }

        public Fired assertFired(String... rules) {
            for (String rule : rules) {
                if (!decision.firedRules().contains(rule)) {
                    throw new AssertionError("expected rule '" + rule + "' to fire; fired: " + decision.firedRules());
                }
            }
            return this;
        }

        public Fired assertNotFired(String... rules) {
            for (String rule : rules) {
                if (decision.firedRules().contains(rule)) throw new AssertionError("expected rule '" + rule + "' not to fire");
            }
            return this;
        }

        /** Some planned action contains {@code pattern} (matched as in scenario files). */
        public Fired assertAction(Map<String, ?> pattern) {
            if (actions().stream().noneMatch(a -> SubsetMatch.matches(pattern, a))) {
                throw new AssertionError("expected an action matching " + ExpectationCheck.flow(pattern)
                        + "\nbut the plan has\n" + ExpectationCheck.listing(actions()));
            }
            return this;
        }

        public Fired assertNoAction(Map<String, ?> pattern) {
            for (Map<String, Object> action : actions()) {
                if (SubsetMatch.matches(pattern, action)) {
                    throw new AssertionError("expected no action matching " + ExpectationCheck.flow(pattern)
                            + " but the plan has " + ExpectationCheck.flow(action));
                }
            }
            return this;
        }

        public Fired assertValid() {
            if (!decision.isValid()) throw new AssertionError("expected a valid plan; problems: " + decision.problems());
            return this;
        }
    }
}
