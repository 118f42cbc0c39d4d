package dev.runbook.engine.explain;

import java.util.ArrayList;
import java.util.List;

/**
 * One condition of a rule's left-hand side as its author wrote it, at the top level of the rule's
 * conjunction: a pattern, a {@code not} or {@code exists} of one pattern, or anything else (an
 * {@code eval}, an {@code or}, an {@code accumulate}, a {@code forall}), which is explained whole.
 *
 * @param text        the condition as written
 * @param line        its line in its file
 * @param kind        what it is
 * @param identifier  the pattern's own binding ({@code $failed}), or null
 * @param type        the pattern's type as written ({@code PrimaryFailure}), or null for {@link Kind#OTHER}
 * @param constraints the pattern's constraints, in the order written; empty for {@link Kind#OTHER}
 * @param tail        what follows the pattern's parentheses ({@code from ...}), or ""
 */
public record Condition(String text, int line, Kind kind, String identifier, String type, List<Constraint> constraints,
                        String tail) {
    /** The kinds of condition an explanation takes apart. */
    public enum Kind { PATTERN, NOT, EXISTS, OTHER }

    /** A constraint of a pattern, as written, and its line. */
    public record Constraint(String text, int line) {}

    public Condition {
        constraints = List.copyOf(constraints);
    }

    /** The variable the explanation binds the pattern's fact to: its own, else one of the explanation's. */
    String factVariable() {
        return identifier != null ? identifier : ConditionQueries.FACT;
    }

    /**
     * The pattern with its first {@code count} constraints, its fact bound (to {@link #factVariable()}),
     * and its tail: for a {@link Kind#NOT} or {@link Kind#EXISTS}, the pattern inside, taken positively.
     */
    String patternWithFirst(int count) {
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < count; i++) kept.add(constraints.get(i).text());
        return factVariable() + " : " + type + "(" + String.join(", ", kept) + ")" + tail;
    }
}
