package dev.runbook.engine.explain;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Goes through a rule's conditions in order with the queries' answers, and stops at the first condition
 * (and, in a pattern, the first constraint) that nothing met: the explanation of a rule that did not fire.
 */
final class Walk {
    private final ParsedRule rule;
    private final List<ConditionQueries.Query> queries;
    private final Map<String, WhyNot.Rows> answers;
    private final OperandValues values;

    Walk(ParsedRule rule, List<ConditionQueries.Query> queries, Map<String, WhyNot.Rows> answers, OperandValues values) {
        this.rule = rule;
        this.queries = queries;
        this.answers = answers;
        this.values = values;
    }

    Explanation explanation() {
        List<Map<String, Object>> shown = new ArrayList<>();
        List<Condition> conditions = rule.conditions();
        for (int i = 0; i < conditions.size(); i++) {
            Condition condition = conditions.get(i);
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("condition", oneLine(condition.text()));
            entry.put("line", condition.line());
            shown.add(entry);
            String stop = switch (condition.kind()) {
                case PATTERN, EXISTS -> pattern(i, condition, entry);
                case NOT -> not(i, condition, entry);
                case OTHER -> other(i, condition, entry);
            };
            if (stop != null) {
                List<String> later = conditions.subList(i + 1, conditions.size()).stream().map(c -> oneLine(c.text())).toList();
                return new Explanation(rule.name(), rule.where(), List.of(), "does not fire: " + stop, shown, later);
            }
        }
        return new Explanation(rule.name(), rule.where(), List.of(), "every condition holds at rest, yet the rule did not "
                + "fire in this decision (its match was cancelled before it could fire: an activation-group, agenda-group, "
                + "no-loop or lock-on-active attribute, or the firing limit)", shown, List.of());
    }

    /** A condition written over several lines, on one: the lines' indentation says nothing to the reader of the explanation. */
    static String oneLine(String text) {
        return text.replaceAll("\\s*\\n\\s*", " ");
    }

    /** A pattern (or {@code exists}), constraint by constraint; the reason it stops the rule, or null. */
    private String pattern(int index, Condition condition, Map<String, Object> entry) {
        List<Map<String, Object>> constraints = new ArrayList<>();
        WhyNot.Rows previous = null;
        for (int j = 0; j <= condition.constraints().size(); j++) {
            WhyNot.Rows rows = answer(ConditionQueries.Purpose.CONSTRAINTS, index, j);
            Map<String, Object> constraintEntry = null;
            if (j > 0) {
                Condition.Constraint constraint = condition.constraints().get(j - 1);
                constraintEntry = new LinkedHashMap<>();
                constraintEntry.put("constraint", constraint.text());
                constraintEntry.put("line", constraint.line());
                constraintEntry.put("matches", rows.count());
                constraints.add(constraintEntry);
            }
            if (rows.count() == 0) {
                entry.put("matches", 0);
                if (!constraints.isEmpty()) entry.put("constraints", constraints);
                if (j == 0) return noFact(index, condition, entry);
                Condition.Constraint constraint = condition.constraints().get(j - 1);
                constraintEntry.put("testedAgainst", testedAgainst(condition, constraint, previous));
                return "no " + condition.type() + " fact meets `" + constraint.text() + "` (" + rule.file() + ":"
                        + constraint.line() + "); " + tested(previous.count(), condition.type());
            }
            previous = rows;
        }
        entry.put("matches", previous.count());
        if (!constraints.isEmpty()) entry.put("constraints", constraints);
        if (condition.kind() == Condition.Kind.EXISTS && answer(ConditionQueries.Purpose.WHOLE, index, -1).count() == 0) {
            return "`" + oneLine(condition.text()) + "` (" + rule.file() + ":" + condition.line() + ") does not hold";
        }
        return null;
    }

    private String noFact(int index, Condition condition, Map<String, Object> entry) {
        WhyNot.Rows alone = queries.stream().anyMatch(q -> q.condition() == index && q.purpose() == ConditionQueries.Purpose.TYPE_ALONE)
                ? answer(ConditionQueries.Purpose.TYPE_ALONE, index, 0) : null;
        String where = " (" + rule.file() + ":" + condition.line() + ")";
        if (alone != null) {
            entry.put("factsOfType", alone.count());
            if (alone.count() == 0) {
                return "there is no " + condition.type() + " fact at all" + where + ": none was observed or derived "
                        + "(a rule that inserts it did not fire: ask --rule about it)";
            }
        }
        return "no " + condition.type() + " fact joins the conditions before it" + where;
    }

    private String not(int index, Condition condition, Map<String, Object> entry) {
        WhyNot.Rows whole = answer(ConditionQueries.Purpose.WHOLE, index, -1);
        entry.put("holds", whole.count() > 0);
        if (whole.count() > 0) return null;
        WhyNot.Rows blockers = answer(ConditionQueries.Purpose.BLOCKERS, index, condition.constraints().size());
        List<Object> facts = new ArrayList<>();
        for (Map<String, Object> row : blockers.first()) facts.add(String.valueOf(row.get(condition.factVariable())));
        if (blockers.count() > blockers.first().size()) facts.add("... and " + (blockers.count() - blockers.first().size()) + " more");
        entry.put("blockedBy", facts);
        return "`" + oneLine(condition.text()) + "` (" + rule.file() + ":" + condition.line() + ") does not hold: "
                + blockers.count() + " " + condition.type() + " fact" + (blockers.count() == 1 ? " matches" : "s match")
                + " the pattern inside it";
    }

    private String other(int index, Condition condition, Map<String, Object> entry) {
        WhyNot.Rows whole = answer(ConditionQueries.Purpose.WHOLE, index, -1);
        entry.put("matches", whole.count());
        if (whole.count() > 0) return null;
        return "`" + oneLine(condition.text()) + "` (" + rule.file() + ":" + condition.line() + ") does not hold for any match "
                + "of the conditions before it (a condition of this form is evaluated whole)";
    }

    /** The facts a constraint was tested against (the matches of the constraints before it), with its operands' values. */
    private List<Object> testedAgainst(Condition condition, Condition.Constraint constraint, WhyNot.Rows candidates) {
        List<Object> tested = new ArrayList<>();
        for (Map<String, Object> row : candidates.first()) {
            Object fact = row.get(condition.factVariable());
            Map<String, Object> variables = new LinkedHashMap<>(row);
            variables.remove(ConditionQueries.FACT);
            Map<String, Object> candidate = new LinkedHashMap<>();
            candidate.put("fact", String.valueOf(fact));
            candidate.put("values", values.of(constraint.text(), fact, variables));
            tested.add(candidate);
        }
        if (candidates.count() > candidates.first().size()) {
            tested.add("... and " + (candidates.count() - candidates.first().size()) + " more");
        }
        return tested;
    }

    private static String tested(int count, String type) {
        return count + " " + type + (count == 1 ? " fact was" : " facts were") + " tested against it";
    }

    private WhyNot.Rows answer(ConditionQueries.Purpose purpose, int condition, int constraints) {
        for (ConditionQueries.Query query : queries) {
            if (query.purpose() == purpose && query.condition() == condition && (constraints < 0 || query.constraints() == constraints)) {
                return answers.get(query.name());
            }
        }
        throw new IllegalStateException("no query for condition " + condition + " (" + purpose + ")");
    }
}
