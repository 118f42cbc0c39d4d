package dev.runbook.cli.rbac;

import dev.runbook.engine.compile.DrlParsing;
import dev.runbook.engine.containment.ParsedDrl;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import org.drools.drl.ast.descr.RuleDescr;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The lines of a DRL file that hold a rule's conditions, from its {@code rule} line up to its {@code then},
 * as Drools' own parser reads them (the engine's {@link DrlParsing}, which the build and the checks read too).
 * A condition may call a fact's method bare ({@code Resource(kind == "Deployment", label("app") == "x")}):
 * that is a read of the fact, not the label action, so the permissions are derived from the other lines alone.
 */
final class ConditionLines {
    private ConditionLines() {}

    /** 1-based line numbers; {@code file} names the file in a message when it does not parse. */
    static Set<Integer> of(String file, String text) {
        List<Problem> problems = new ArrayList<>();
        List<ParsedDrl> parsed = DrlParsing.parse(Map.of(file, text), problems);
        if (parsed == null || parsed.isEmpty()) {
            throw new InvalidInputException(Problem.inFile(file,
                    "does not parse as DRL, so the permissions cannot be derived; `runbook lint` names the line to fix"));
        }
        Set<Integer> lines = new TreeSet<>();
        for (RuleDescr rule : parsed.get(0).descr().getRules()) {
            for (int line = rule.getLine(); line < rule.getConsequenceLine(); line++) lines.add(line);
        }
        return lines;
    }
}
