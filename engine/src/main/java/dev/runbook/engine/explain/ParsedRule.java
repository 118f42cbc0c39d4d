package dev.runbook.engine.explain;

import java.util.List;

/**
 * A rule as its file holds it, for an explanation: its name, where it is, the package and imports of
 * its file (its conditions are re-evaluated in that package, with those imports), and its conditions.
 */
public record ParsedRule(String name, String file, int line, String packageName, List<String> imports,
                         List<Condition> conditions) {
    public ParsedRule {
        imports = List.copyOf(imports);
        conditions = List.copyOf(conditions);
    }

    /** {@code rules/failover.drl:40}. */
    public String where() { return file + ":" + line; }
}
