package dev.runbook.engine.decide;

import java.util.Map;

/**
 * The rules kept firing past the bundle's {@code limits.maxFirings}: almost always a rule that
 * changes a fact it matches. Names the rules that fired most.
 */
public class FiringLimitExceededException extends RuntimeException {
    private final Map<String, Integer> topRules;

    public FiringLimitExceededException(int limit, Map<String, Integer> topRules) {
        super("the rules fired more than " + limit + " times in one cycle (limits.maxFirings) and were stopped; "
                + "the rules that kept firing: " + topRules
                + ". A rule that inserts or modifies a fact it matches re-fires forever: guard it with a 'not' "
                + "on what it adds, or use insertLogical");
        this.topRules = Map.copyOf(topRules);
    }

    public Map<String, Integer> topRules() { return topRules; }
}
