package dev.runbook.engine.idiom;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.compile.DrlParsing;
import dev.runbook.engine.containment.ParsedDrl;
import dev.runbook.engine.problem.Problem;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code runbook lint}'s warnings about rules that do by hand what the framework does for them
 * (docs/reference/idioms.md): a {@code not Paused()} guard the engine makes redundant, a bare salience number, a loop in a consequence. Read from Drools'
 * own parse tree, as the compiler reads the rules; a file that does not parse is the compiler's to
 * report, and gets no warning here.
 */
public final class IdiomLint {
    private IdiomLint() {}

    /**
     * @param drl  the bundle's rule files by path
     * @param spec the bundle's bundle.yaml: a pause guard is redundant only where it declares {@code pause:}
     */
    public static List<Problem> check(Map<String, String> drl, BundleSpec spec) {
        List<ParsedDrl> parsed = DrlParsing.parse(drl, new ArrayList<>());
        if (parsed == null) return List.of();
        List<Problem> warnings = new ArrayList<>();
        for (ParsedDrl file : parsed) {
            if (spec.pause() != null) warnings.addAll(PauseGuardLint.check(file));
            warnings.addAll(BareSalienceLint.check(file));
            warnings.addAll(LoopLint.check(file));
        }
        return warnings;
    }
}
