package dev.runbook.engine.decide;

import dev.runbook.engine.bundle.ParameterValues;
import dev.runbook.engine.check.PlanChecker;
import dev.runbook.engine.check.PlanProblem;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.containment.ContainedRun;
import dev.runbook.engine.policy.ExplicitNamespace;
import dev.runbook.engine.policy.Policy;
import dev.runbook.engine.template.TemplateRenderer;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.ApplyTemplate;
import dev.runbook.rules.action.FinishCleanup;
import dev.runbook.rules.fact.Clock;
import dev.runbook.rules.fact.Params;
import dev.runbook.rules.fact.Resource;
import org.kie.api.event.rule.AgendaEventListener;
import org.kie.api.event.rule.RuleRuntimeEventListener;
import org.kie.api.runtime.KieSession;
import org.kie.api.runtime.rule.AgendaFilter;
import org.kie.api.runtime.rule.ConsequenceException;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One decision: a clean session from the compiled bundle's pool, the observed facts inserted, the rules
 * fired under the firing limit, the actions collected, templates rendered, and the plan checked.
 * Stateless and thread-safe: any number of cycles may run at once on one compiled bundle.
 */
public final class DecisionCycle {
    private static final Pattern RULE_IN_MESSAGE = Pattern.compile("[Rr]ule \"?([^\"\\]]+?)\"?(?: in |\\])");

    private DecisionCycle() {}

    /**
     * @throws IllegalArgumentException     a parameter override is unknown or of the wrong type
     * @throws FiringLimitExceededException  the rules did not come to rest within the limit
     * @throws RuleFailedException           a rule threw; a {@code RuleContainmentException} when it ran
     *                                       past its deadline, its memory budget or the stack
     */
    public static Decision run(CompiledBundle bundle, Observation observation) {
        return run(bundle, observation, Policy.DEFAULT);
    }

    /** As {@link #run(CompiledBundle, Observation)}, the plan checked against the administrator's policy. */
    public static Decision run(CompiledBundle bundle, Observation observation, Policy policy) {
        Params params = ParameterValues.resolve(bundle.spec(), observation.parameterOverrides());
        var overdue = CleanupDeadline.overduePlan(bundle.spec(), observation.primary(), observation.now());
        if (overdue.isPresent()) {
            return new Decision(bundle.name(), bundle.version(), observation.now(), List.of(), overdue.get(),
                    PlanChecker.check(overdue.get(), bundle.spec(), observation.primary(), policy));
        }
        PauseGuard pause = PauseGuard.of(bundle.spec(), observation.primary());
        TraceRecorder recorder;
        do {
            recorder = new TraceRecorder();
            // A pooled session: disposing it resets it for the next cycle (facts, agenda, truth maintenance).
            KieSession session = bundle.sessions().newKieSession();
            try {
                fireToRest(bundle, session, observation, params, policy, recorder, pause);
            } finally {
                // The pool's reset keeps listeners; this cycle's recorder must not hear the next one.
                session.removeEventListener((AgendaEventListener) recorder);
                session.removeEventListener((RuleRuntimeEventListener) recorder);
                session.dispose();
            }
        } while (pause.refusesMore(recorder.firings()));
        TraceRecorder fired = recorder;

        List<PlanProblem> problems = new ArrayList<>();
        // Templates are the bundle's code too: rendered under the cycle's deadline and memory budget.
        List<PlannedAction> planned = ContainedRun.cycle(policy.containment(), bundle.spec().limits(), () -> null,
                () -> collect(bundle, observation, params, fired, problems));
        problems.addAll(PlanChecker.check(planned, bundle.spec(), observation.primary(), policy));
        return new Decision(bundle.name(), bundle.version(), observation.now(), fired.firings(), planned, problems);
    }

    /**
     * Runs the bundle's rules on the observation to rest in a new session (not a pooled one: the caller
     * reads it, e.g. an explanation's queries), under the same limits and containment as a cycle, and
     * hands the session at rest to {@code atRest} before disposing of it.
     *
     * @throws FiringLimitExceededException, RuleFailedException as {@link #run(CompiledBundle, Observation, Policy)}
     */
    public static <T> T atRest(CompiledBundle bundle, Observation observation, Policy policy, Function<KieSession, T> atRest) {
        Params params = ParameterValues.resolve(bundle.spec(), observation.parameterOverrides());
        PauseGuard pause = PauseGuard.of(bundle.spec(), observation.primary());
        while (true) {
            KieSession session = bundle.kieBase().newKieSession();
            try {
                TraceRecorder recorder = new TraceRecorder();
                fireToRest(bundle, session, observation, params, policy, recorder, pause);
                if (!pause.refusesMore(recorder.firings())) return atRest.apply(session);
            } finally {
                session.dispose();
            }
        }
    }

    /** Inserts the observation's facts in the order every cycle does and fires the rules under the firing limit. */
    private static void fireToRest(CompiledBundle bundle, KieSession session, Observation observation, Params params,
                                   Policy policy, TraceRecorder recorder, PauseGuard pause) {
        session.addEventListener((AgendaEventListener) recorder);
        session.addEventListener((RuleRuntimeEventListener) recorder);
        session.insert(new Clock(observation.now()));
        session.insert(params);
        session.insert(observation.primary());
        CleanupDeadline.deleting(bundle.spec(), observation.primary()).ifPresent(session::insert);
        if (pause.pausedFact() != null) session.insert(pause.pausedFact());
        observation.secondaries().stream()
                .sorted(Comparator.comparing(Resource::getRef))
                .forEach(session::insert);
        int limit = bundle.spec().limits().maxFirings();
        int fired = ContainedRun.cycle(policy.containment(), bundle.spec().limits(), recorder::currentRule,
                () -> fire(session, recorder, pause.filter(), limit + 1));
        if (fired > limit) {
            throw new FiringLimitExceededException(limit, recorder.topRules());
        }
    }

    private static int fire(KieSession session, TraceRecorder recorder, AgendaFilter filter, int max) {
        try {
            return filter == null ? session.fireAllRules(max) : session.fireAllRules(filter, max);
        } catch (ConsequenceException e) {
            throw new RuleFailedException(e.getMatch().getRule().getName(), e.getCause() == null ? e : e.getCause());
        } catch (RuntimeException e) {
            String rule = recorder.currentRule();
            if (rule == null) {
                Matcher m = RULE_IN_MESSAGE.matcher(String.valueOf(e.getMessage()));
                rule = m.find() ? m.group(1) : "(a condition)";
            }
            throw new RuleFailedException(rule, e);
        }
    }

    /** Renders templates and merges equal actions, keeping the order in which they were first added. */
    private static List<PlannedAction> collect(CompiledBundle bundle, Observation observation, Params params,
                                               TraceRecorder recorder, List<PlanProblem> problems) {
        // A rendered object is in the primary's namespace and labelled by the renderer, and the render
        // cache keeps it so: an unchanged input hands out the same finished action every cycle.
        TemplateRenderer renderer = new TemplateRenderer(bundle.templates(), new RecommendedLabels.OnRendered(bundle.name()));
        Map<Form, Action> actionByForm = new LinkedHashMap<>();
        Map<Form, List<String>> rulesByForm = new LinkedHashMap<>();
        for (TraceRecorder.Inserted inserted : recorder.actions()) {
            Action action = inserted.action();
            if (action instanceof ApplyTemplate template) {
                try {
                    action = ContainedRun.template(template.getTemplate(), inserted.rule(),
                            () -> renderer.render(template, observation.primary(), params));
                } catch (TemplateRenderer.TemplateException e) {
                    problems.add(PlanProblem.template(e.getMessage(), inserted.rule()));
                    continue;
                }
            } else {
                if (action instanceof FinishCleanup cleanup && cleanup.getFinalizer() == null) {
                    action = cleanup.withFinalizer(bundle.spec().finalizer());
                }
                action = ExplicitNamespace.of(action, observation.primary().getNamespace());
                action = RecommendedLabels.of(action, bundle.name(), observation.primary());
            }
            Form form = new Form(action);
            actionByForm.putIfAbsent(form, action);
            List<String> rules = rulesByForm.computeIfAbsent(form, a -> new ArrayList<>());
            if (!rules.contains(inserted.rule())) rules.add(inserted.rule());
        }
        List<PlannedAction> planned = new ArrayList<>();
        actionByForm.forEach((form, action) -> planned.add(new PlannedAction(action, rulesByForm.get(form))));
        // Releasing the finalizer lets the primary go at once: it comes after everything written to it.
        planned.sort(Comparator.comparing(p -> p.action() instanceof FinishCleanup));
        return planned;
    }

    /** An action as a map key by its YAML form, with the form's hash computed once per action. */
    private record Form(Action action) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Form f && (f.action == action || f.action.sameAs(action));
        }

        @Override
        public int hashCode() { return action.formHash(); }
    }
}
