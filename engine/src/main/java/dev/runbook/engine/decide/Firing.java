package dev.runbook.engine.decide;

import dev.runbook.rules.action.Action;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One rule firing in a cycle: which rule, the facts it matched, the actions it added, those of them
 * withdrawn later in the cycle (an {@code insertLogical} whose match stopped holding), and the facts
 * it derived. The trace of a cycle is the list of its firings, in order.
 *
 * <p>The facts are kept as they are and described ({@link #matched()}, {@link #derived()}) only when
 * asked: most cycles are never explained, so they should not pay for writing text. Rules do not
 * modify facts (right-hand sides only add), so a description made later is the fact as it was matched.
 */
public record Firing(String rule, List<?> matchedFacts, List<Action> added, List<Action> withdrawn,
                     List<?> derivedFacts) {
    public Firing {
        // Not List.copyOf: a match may hold null for a pattern that binds no fact.
        matchedFacts = Collections.unmodifiableList(new ArrayList<>(matchedFacts));
        added = List.copyOf(added);
        withdrawn = List.copyOf(withdrawn);
        derivedFacts = Collections.unmodifiableList(new ArrayList<>(derivedFacts));
    }

    /** The matched facts, each as its text (a string stays itself). */
    public List<String> matched() { return describe(matchedFacts); }

    /** The derived facts, each as its text. */
    public List<String> derived() { return describe(derivedFacts); }

    private static List<String> describe(List<?> facts) {
        return facts.stream().map(String::valueOf).toList();
    }
}
