package dev.runbook.engine.idiom;

import dev.runbook.engine.containment.ParsedDrl;
import dev.runbook.engine.problem.Problem;
import org.drools.drl.ast.descr.AttributeDescr;
import org.drools.drl.ast.descr.RuleDescr;

import java.util.ArrayList;
import java.util.List;

/**
 * A lint warning: a rule with a bare {@code salience} number. A number says nothing of why the rule
 * comes before another, and two files that mean the same level drift apart; a named level
 * ({@code @priority(NAME)}, declared once in bundle.yaml's {@code priorities:}) says it, or no salience
 * at all where the order does not matter.
 */
final class BareSalienceLint {
    private BareSalienceLint() {}

    static List<Problem> check(ParsedDrl drl) {
        List<Problem> warnings = new ArrayList<>();
        for (RuleDescr rule : drl.descr().getRules()) {
            AttributeDescr salience = rule.getAttributes().get("salience");
            if (salience == null) continue;
            warnings.add(new Problem(drl.file(), salience.getLine(), salience.getColumn() + 1, "rule \"" + rule.getName()
                    + "\": salience " + salience.getValue() + " is a bare number: name the level in bundle.yaml's priorities: and say "
                    + "@priority(NAME), or drop it where the order does not matter (docs/reference/idioms.md#priorities)"));
        }
        return warnings;
    }
}
