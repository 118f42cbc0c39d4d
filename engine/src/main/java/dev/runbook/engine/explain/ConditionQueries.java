package dev.runbook.engine.explain;

import java.util.ArrayList;
import java.util.List;

/**
 * The DRL queries that re-evaluate a rule's conditions one step at a time, in the rule's own package
 * and with its file's imports: for condition i, the conditions before it as written, then condition i
 * with its first j constraints (j = 0, 1, ...), its fact bound to a variable so that the rows name it.
 * A query is Drools answering "which facts match these conditions now", evaluated on the session at
 * rest, with no agenda and no firing: so the first query without a row names the first constraint that
 * no fact meets, with Drools' own semantics (joins, bindings, {@code from}, truth maintenance).
 *
 * <p>Per kind of condition: a pattern gives one query per constraint count and one of the bare type on
 * its own (is there such a fact at all?); {@code exists} the same, then the {@code exists} as written;
 * {@code not} the condition as written and the pattern inside taken positively (which facts block it);
 * anything else the condition as written.
 */
final class ConditionQueries {
    /** The variable a pattern's fact is bound to when its author bound it to none. */
    static final String FACT = "$__why_fact";
    private static final String PREFIX = "__why ";

    /** What a query asks about a condition. */
    enum Purpose {
        /** The type alone, without the conditions before it: is there such a fact at all? */
        TYPE_ALONE,
        /** The conditions before it, then the pattern with its first {@code constraints} constraints. */
        CONSTRAINTS,
        /** The conditions before it, then the condition as written. */
        WHOLE,
        /** The conditions before it, then the pattern inside a {@code not}, taken positively. */
        BLOCKERS
    }

    /** One query: its name, what it asks, about which condition, with how many constraints. */
    record Query(String name, Purpose purpose, int condition, int constraints, String text) {}

    private ConditionQueries() {}

    static List<Query> of(ParsedRule rule) {
        List<Query> queries = new ArrayList<>();
        List<Condition> conditions = rule.conditions();
        for (int i = 0; i < conditions.size(); i++) {
            Condition condition = conditions.get(i);
            List<String> before = conditions.subList(0, i).stream().map(Condition::text).toList();
            switch (condition.kind()) {
                case PATTERN, EXISTS -> {
                    if (condition.tail().isEmpty()) {
                        queries.add(query(queries, Purpose.TYPE_ALONE, i, 0, List.of(), condition.patternWithFirst(0)));
                    }
                    for (int j = 0; j <= condition.constraints().size(); j++) {
                        queries.add(query(queries, Purpose.CONSTRAINTS, i, j, before, condition.patternWithFirst(j)));
                    }
                    if (condition.kind() == Condition.Kind.EXISTS) {
                        queries.add(query(queries, Purpose.WHOLE, i, -1, before, condition.text()));
                    }
                }
                case NOT -> {
                    queries.add(query(queries, Purpose.WHOLE, i, -1, before, condition.text()));
                    queries.add(query(queries, Purpose.BLOCKERS, i, condition.constraints().size(), before,
                            condition.patternWithFirst(condition.constraints().size())));
                }
                case OTHER -> queries.add(query(queries, Purpose.WHOLE, i, -1, before, condition.text()));
            }
        }
        return queries;
    }

    /** A DRL file holding the queries, in the rule's package with its file's imports. */
    static String drl(ParsedRule rule, List<Query> queries) {
        StringBuilder drl = new StringBuilder();
        if (rule.packageName() != null && !rule.packageName().isBlank()) drl.append("package ").append(rule.packageName()).append("\n\n");
        rule.imports().forEach(line -> drl.append(line).append('\n'));
        for (Query query : queries) {
            drl.append("\nquery \"").append(query.name()).append("\"\n").append(query.text()).append("end\n");
        }
        return drl.toString();
    }

    private static Query query(List<Query> so, Purpose purpose, int condition, int constraints, List<String> before, String last) {
        StringBuilder text = new StringBuilder();
        for (String line : before) text.append("    ").append(line).append('\n');
        text.append("    ").append(last).append('\n');
        return new Query(PREFIX + so.size(), purpose, condition, constraints, text.toString());
    }
}
