package dev.runbook.engine.idiom;

import dev.runbook.engine.bundle.Pause;
import dev.runbook.engine.containment.ParsedDrl;
import dev.runbook.engine.problem.Problem;
import org.drools.drl.ast.descr.BaseDescr;
import org.drools.drl.ast.descr.ConditionalElementDescr;
import org.drools.drl.ast.descr.NotDescr;
import org.drools.drl.ast.descr.PatternDescr;
import org.drools.drl.ast.descr.RuleDescr;

import java.util.ArrayList;
import java.util.List;

/**
 * A lint warning: a {@code not Paused()} guard in a rule that does not declare {@code @whilePaused}. The
 * engine already keeps such a rule from acting while its primary is paused (bundle.yaml's
 * {@code pause:}, docs/reference/idioms.md#pause), so the guard is redundant; and where it stands, a reader
 * takes it for the only thing that stops the rule.
 */
final class PauseGuardLint {
    private PauseGuardLint() {}

    static List<Problem> check(ParsedDrl drl) {
        List<Problem> warnings = new ArrayList<>();
        for (RuleDescr rule : drl.descr().getRules()) {
            if (rule.hasAnnotation(Pause.WHILE_PAUSED) || rule.getLhs() == null) continue;
            for (PatternDescr guard : negatedPaused(rule.getLhs(), false, new ArrayList<>())) {
                warnings.add(new Problem(drl.file(), guard.getLine(), guard.getColumn() + 1,
                        "rule \"" + rule.getName() + "\": not Paused() is redundant: the engine fires no rule that asks for an action "
                                + "while the primary is paused (bundle.yaml pause:); remove it (docs/reference/idioms.md#pause)"));
            }
        }
        return warnings;
    }

    /** The {@code Paused()} patterns directly under a {@code not}, anywhere in {@code descr}. */
    private static List<PatternDescr> negatedPaused(BaseDescr descr, boolean negated, List<PatternDescr> found) {
        if (descr instanceof PatternDescr pattern) {
            if (negated && "Paused".equals(pattern.getObjectType()) && pattern.getDescrs().isEmpty()) found.add(pattern);
        } else if (descr instanceof ConditionalElementDescr element) {
            for (BaseDescr child : element.getDescrs()) negatedPaused(child, descr instanceof NotDescr, found);
        }
        return found;
    }
}
