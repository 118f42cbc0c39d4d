package dev.runbook.engine.containment;

import java.util.ArrayList;
import java.util.List;

/**
 * One MVEL name chain as written: {@code $app.spec.get("x").size()}, {@code java.time.DayOfWeek.MONDAY},
 * {@code Primary(...)}: its steps (names, calls with the range and number of their arguments,
 * indexes) and where it ends. Reads MVEL's member syntax: {@code .}, the null-safe {@code .?} and
 * Drools' {@code !.}, {@code (...)} and {@code [...]}.
 */
record MvelChain(List<Step> steps, int end) {
    /** A name (or {@code []} for an index), at {@code offset}; {@code argsFrom..argsTo} holds a call's arguments or an index. */
    record Step(String name, int offset, boolean call, boolean index, int argsFrom, int argsTo, int arity) {
        Step called(int from, int to, int arity) { return new Step(name, offset, true, false, from, to, arity); }
    }

    /** The chain at {@code i}; {@code member}: it starts with {@code .name} (a member of a literal or a parenthesised value). */
    static MvelChain parse(String text, int i, int to, boolean member) {
        List<Step> steps = new ArrayList<>();
        if (!member) {
            int end = identifierEnd(text, i, to);
            steps.add(new Step(text.substring(i, end), i, false, false, -1, -1, 0));
            i = end;
        }
        while (true) {
            int j = i;
            while (j < to && Character.isWhitespace(text.charAt(j))) j++;
            if (j >= to) break;
            char c = text.charAt(j);
            if (c == '(' && !steps.isEmpty() && !steps.get(steps.size() - 1).call() && !steps.get(steps.size() - 1).index()) {
                int close = closing(text, j, to, '(', ')');
                Step last = steps.remove(steps.size() - 1);
                steps.add(last.called(j + 1, close, arity(text, j + 1, close)));
                i = Math.min(close + 1, to);
            } else if (c == '[' && !steps.isEmpty()) {
                int close = closing(text, j, to, '[', ']');
                steps.add(new Step("[]", j, false, true, j + 1, close, 1));
                i = Math.min(close + 1, to);
            } else {
                int name = j + (c == '!' ? 2 : 1);
                if (name < to && text.charAt(name) == '?') name++; // MVEL's null-safe .?
                boolean dot = c == '.' || c == '!' && j + 1 < to && text.charAt(j + 1) == '.';
                if (!dot || name >= to || !Character.isJavaIdentifierStart(text.charAt(name))) break;
                int end = identifierEnd(text, name, to);
                steps.add(new Step(text.substring(name, end), name, false, false, -1, -1, 0));
                i = end;
            }
        }
        return new MvelChain(steps, i);
    }

    private static int identifierEnd(String text, int i, int to) {
        while (i < to && Character.isJavaIdentifierPart(text.charAt(i))) i++;
        return i;
    }

    /** The index of the bracket closing the one at {@code open}, skipping strings and nested brackets; {@code to} if none. */
    static int closing(String text, int open, int to, char opening, char closingChar) {
        int depth = 0;
        for (int i = open; i < to; i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\'') {
                i = skipString(text, i) - 1;
            } else if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
                return i;
            }
        }
        return to;
    }

    /** How many arguments {@code text[from, to)} holds: its commas outside brackets and strings, plus one; 0 when blank. */
    private static int arity(String text, int from, int to) {
        if (text.substring(from, Math.max(from, to)).isBlank()) return 0;
        int count = 1;
        int depth = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\'') i = skipString(text, i) - 1;
            else if (c == '(' || c == '[' || c == '{') depth++;
            else if (c == ')' || c == ']' || c == '}') depth--;
            else if (c == ',' && depth == 0) count++;
        }
        return count;
    }

    static int skipString(String text, int i) {
        char quote = text.charAt(i);
        int j = i + 1;
        while (j < text.length() && text.charAt(j) != quote) {
            if (text.charAt(j) == '\\') j++;
            j++;
        }
        return Math.min(j + 1, text.length());
    }
}
