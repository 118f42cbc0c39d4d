package dev.runbook.engine.plan;

import dev.runbook.engine.check.PlanProblem;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.Firing;
import dev.runbook.engine.decide.PlannedAction;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.function.Durations;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.representer.Representer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The YAML form of a decision, as {@code runbook plan} prints it: which rules fired on which facts,
 * then the actions (each in its one YAML form, with the rules that asked for it under {@code by}),
 * then any problems. A refused plan lists its actions under {@code refusedActions}, never {@code actions}.
 */
public final class PlanYaml {
    private PlanYaml() {}

    public static Map<String, Object> toMap(Decision decision, String primary) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("bundle", decision.bundle() + "@" + decision.bundleVersion());
        map.put("primary", primary);
        map.put("now", decision.now().toString());
        map.put("valid", decision.isValid());
        List<Object> fired = new ArrayList<>();
        for (Firing firing : decision.firings()) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("rule", firing.rule());
            entry.put("matched", firing.matched());
            if (!firing.derived().isEmpty()) entry.put("derived", firing.derived());
            if (!firing.added().isEmpty()) {
                entry.put("added", firing.added().stream()
                        .map(a -> firing.withdrawn().contains(a) ? a.identity() + " (withdrawn: the match stopped holding)" : a.identity())
                        .toList());
            }
            fired.add(entry);
        }
        map.put("fired", fired);
        List<Object> actions = new ArrayList<>();
        for (PlannedAction planned : decision.actions()) actions.add(actionForm(planned));
        map.put(decision.isValid() ? "actions" : "refusedActions", actions);
        decision.requeueAfter().ifPresent(after -> map.put("requeueAfter", Durations.format(after)));
        if (!decision.isValid()) {
            List<Object> problems = new ArrayList<>();
            for (PlanProblem problem : decision.problems()) {
                Map<String, Object> entry = new LinkedHashMap<>();
                entry.put("kind", problem.kind().name());
                entry.put("message", problem.message());
                entry.put("rules", problem.rules());
                problems.add(entry);
            }
            map.put("problems", problems);
        }
        return map;
    }

    /** An action's YAML form plus {@code by}: the rules that asked for it. */
    public static Map<String, Object> actionForm(PlannedAction planned) {
        Map<String, Object> form = new LinkedHashMap<>(planned.action().toMap());
        form.put("by", planned.rules());
        return form;
    }

    public static String dump(Object value) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setIndicatorIndent(0);
        options.setIndent(2);
        options.setPrettyFlow(true);
        options.setWidth(120);
        options.setSplitLines(false);
        Representer representer = new Representer(options);
        // A fresh copy shares no list between two places, so the output holds no YAML anchors (&id001).
        return new Yaml(representer, options).dump(dev.runbook.rules.fact.Values.thawed(value));
    }
}
