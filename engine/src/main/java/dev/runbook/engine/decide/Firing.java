package dev.runbook.engine.decide;

import dev.runbook.rules.action.Action;

import java.util.List;

/**
 * One rule firing in a cycle: which rule, the facts it matched, the actions it added, those of them
 * withdrawn later in the cycle (an {@code insertLogical} whose match stopped holding), and the facts
 * it derived. The trace of a cycle is the list of its firings, in order.
 */
public record Firing(String rule, List<String> matched, List<Action> added, List<Action> withdrawn,
                     List<String> derived) {
    public Firing {
        matched = List.copyOf(matched);
        added = List.copyOf(added);
        withdrawn = List.copyOf(withdrawn);
        derived = List.copyOf(derived);
    }
}
