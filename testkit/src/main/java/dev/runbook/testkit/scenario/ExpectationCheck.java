package dev.runbook.testkit.scenario;

import dev.runbook.engine.check.PlanProblem;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.engine.plan.PlanYaml;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compares one cycle with what a scenario expects and says, for each difference, what was expected
 * and what happened instead — the planned actions and the rules that fired — so that a failure
 * reads without re-running anything.
 */
final class ExpectationCheck {
    private ExpectationCheck() {}

    /**
     * @param status     the primary's status after the plan was applied
     * @param conditions the primary's conditions after the plan was applied
     * @return one message per unmet expectation; empty when all are met
     */
    static List<String> check(String file, Expectation expect, Decision decision,
                              Map<String, Object> status, List<Object> conditions) {
        List<String> failures = new ArrayList<>();
        List<String> fired = decision.firedRules();
        List<Map<String, Object>> actions = decision.actions().stream().map(PlanYaml::actionForm).toList();

        if (expect.fired() != null) {
            for (String rule : expect.fired().value()) {
                if (!fired.contains(rule)) {
                    failures.add(at(file, expect.fired().line(), "expected rule '" + rule + "' to fire, but it did not"
                            + firedRules(decision)));
                }
            }
        }
        if (expect.notFired() != null) {
            for (String rule : expect.notFired().value()) {
                if (fired.contains(rule)) {
                    failures.add(at(file, expect.notFired().line(), "expected rule '" + rule + "' not to fire, but it fired"));
                }
            }
        }
        if (decision.isValid() != expect.expectsValid()) {
            failures.add(at(file, expect.valid() == null ? 0 : expect.valid().line(),
                    "expected the plan to be " + (expect.expectsValid() ? "valid" : "refused") + ", but it was "
                            + (decision.isValid() ? "valid" : "refused: " + decision.problems())));
        }
        for (Expectation.Located<Map<String, Object>> want : expect.actions()) {
            if (actions.stream().noneMatch(a -> SubsetMatch.matches(want.value(), a))) {
                failures.add(at(file, want.line(), "expected an action matching\n" + indent(flow(want.value()))
                        + "\nbut the plan has\n" + indent(listing(actions)) + firedRules(decision)));
            }
        }
        for (Expectation.Located<Map<String, Object>> unwanted : expect.absent()) {
            for (Map<String, Object> action : actions) {
                if (SubsetMatch.matches(unwanted.value(), action)) {
                    failures.add(at(file, unwanted.line(), "expected no action matching " + flow(unwanted.value())
                            + ", but the plan has\n" + indent(flow(action))));
                }
            }
        }
        if (expect.noActions() != null && expect.noActions().value() && !actions.isEmpty()) {
            failures.add(at(file, expect.noActions().line(), "expected no actions, but the plan has\n"
                    + indent(listing(actions)) + firedRules(decision)));
        }
        if (expect.noActions() != null && !expect.noActions().value() && actions.isEmpty()) {
            failures.add(at(file, expect.noActions().line(), "expected some actions, but the plan is empty" + firedRules(decision)));
        }
        for (Expectation.Located<Map<String, Object>> want : expect.problems()) {
            List<Map<String, Object>> problems = decision.problems().stream().map(ExpectationCheck::problemForm).toList();
            if (problems.stream().noneMatch(p -> SubsetMatch.matches(want.value(), p))) {
                failures.add(at(file, want.line(), "expected a plan problem matching " + flow(want.value())
                        + ", but the problems are\n" + indent(listing(problems))));
            }
        }
        if (expect.status() != null && !SubsetMatch.matches(expect.status().value(), status)) {
            failures.add(at(file, expect.status().line(), "expected the status to contain\n" + indent(flow(expect.status().value()))
                    + "\nbut after the plan it is\n" + indent(flow(status))));
        }
        for (Expectation.Located<Map<String, Object>> want : expect.conditions()) {
            if (conditions.stream().noneMatch(c -> SubsetMatch.matches(want.value(), c))) {
                failures.add(at(file, want.line(), "expected a condition matching " + flow(want.value())
                        + ", but after the plan the conditions are\n" + indent(listing(conditions))));
            }
        }
        return failures;
    }

    private static Map<String, Object> problemForm(PlanProblem problem) {
        Map<String, Object> form = new LinkedHashMap<>();
        form.put("kind", problem.kind().name());
        form.put("message", problem.message());
        form.put("rules", problem.rules());
        return form;
    }

    private static String firedRules(Decision decision) {
        List<String> distinct = decision.firedRules().stream().distinct().toList();
        return "\nrules that fired: " + (distinct.isEmpty() ? "none" : String.join(", ", distinct));
    }

    static String at(String file, int line, String message) {
        return (line > 0 ? file + ":" + line : file) + ": " + message;
    }

    static String flow(Object value) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.FLOW);
        options.setWidth(Integer.MAX_VALUE);
        return new Yaml(options).dump(value).trim();
    }

    static String listing(List<?> items) {
        if (items.isEmpty()) return "(nothing)";
        StringBuilder text = new StringBuilder();
        for (Object item : items) text.append("- ").append(flow(item)).append('\n');
        return text.toString().stripTrailing();
    }

    static String indent(String text) {
        return "    " + text.replace("\n", "\n    ");
    }
}
