package dev.runbook.engine.compile;

import dev.runbook.engine.containment.ParsedDrl;
import dev.runbook.engine.problem.Problem;
import org.drools.drl.ast.descr.AnnotationDescr;
import org.drools.drl.ast.descr.AttributeDescr;
import org.drools.drl.ast.descr.RuleDescr;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Named priority levels: a rule says {@code @priority(derive)} and bundle.yaml's {@code priorities:}
 * says once what {@code derive} is ({@code derive: 100}); the engine gives the rule that salience
 * before Drools builds it, so the order between rules is read by name and changed in one place
 * (docs/reference/idioms.md#priorities). A bundle without priorities needs none: rules fire in the
 * order Drools' agenda gives them, which is all most rules need.
 */
public final class PriorityLevels {
    /** The rule attribute that names a level. */
    public static final String PRIORITY = "priority";

    private PriorityLevels() {}

    /**
     * Gives each rule with {@code @priority(NAME)} the salience {@code levels} declares for it, in the
     * parse trees Drools then builds; the problems, as {@code file:line:col}, of a level that is not
     * declared or a rule that gives a salience number as well.
     */
    public static List<Problem> assign(List<ParsedDrl> files, Map<String, Integer> levels) {
        List<Problem> problems = new ArrayList<>();
        for (ParsedDrl file : files) {
            for (RuleDescr rule : file.descr().getRules()) {
                AnnotationDescr priority = rule.getAnnotation(PRIORITY);
                if (priority == null) continue;
                String name = priority.getSingleValue() == null ? "" : AnnotationDescr.unquote(String.valueOf(priority.getSingleValue()));
                Integer salience = levels.get(name);
                if (rule.getAttributes().containsKey("salience")) {
                    problems.add(new Problem(file.file(), rule.getLine(), rule.getColumn() + 1, "rule \"" + rule.getName()
                            + "\" gives both @priority(" + name + ") and a salience: keep @priority, whose level bundle.yaml's priorities: declares"));
                } else if (salience == null) {
                    problems.add(new Problem(file.file(), rule.getLine(), rule.getColumn() + 1, "rule \"" + rule.getName()
                            + "\": @priority(" + name + ") is not a level of bundle.yaml's priorities:"
                            + (levels.isEmpty() ? " (it declares none)" : " " + levels.keySet())
                            + "; declare it there, e.g. priorities: {" + (name.isEmpty() ? "derive" : name) + ": 100}"));
                } else {
                    rule.addAttribute(new AttributeDescr("salience", String.valueOf(salience)));
                }
            }
        }
        return problems;
    }
}
