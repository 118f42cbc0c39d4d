package dev.runbook.engine.containment;

/**
 * A guard against regular expressions whose matching can take exponential time (catastrophic
 * backtracking), for a regular expression written as a literal in a bundle: a repeated group that
 * holds a repetition ({@code (a+)+}), a repeated group that holds an alternation ({@code (a|ab)*}),
 * a back-reference ({@code \1}, {@code \k<name>}). Java's matcher runs inside one JDK call that no
 * budget check reaches; these shapes are what makes it run for ages on a short input. A regular
 * expression without them can still be slow (polynomial: {@code a*a*a*b}); the operator's process
 * boundary bounds the rest (docs/security.md).
 */
final class RegexShape {
    private RegexShape() {}

    /** Why {@code regex} is refused, or null when its shape is allowed. */
    static String problem(String regex) {
        // For each open group: whether it holds a repetition, an alternation.
        java.util.ArrayDeque<boolean[]> groups = new java.util.ArrayDeque<>();
        boolean[] top = new boolean[2];
        boolean[] lastGroup = null; // the group that just closed, if the last atom was a group
        int i = 0;
        while (i < regex.length()) {
            char c = regex.charAt(i);
            boolean[] closed = null;
            if (c == '\\') {
                if (i + 1 < regex.length()) {
                    char next = regex.charAt(i + 1);
                    if (Character.isDigit(next) && next != '0' || next == 'k') return "a back-reference (\\" + next + ")";
                }
                i += 2;
            } else if (c == '[') {
                i = classEnd(regex, i);
            } else if (c == '(') {
                groups.push(top);
                top = new boolean[2];
                i++;
            } else if (c == ')') {
                closed = top;
                top = groups.isEmpty() ? new boolean[2] : groups.pop();
                top[0] |= closed[0];
                top[1] |= closed[1];
                i++;
            } else if (c == '|') {
                top[1] = true;
                i++;
            } else if (c == '*' || c == '+' || c == '{' && bounds(regex, i) != null) {
                long[] bounds = c == '{' ? bounds(regex, i) : new long[] {c == '*' ? 0 : 1, Long.MAX_VALUE};
                if (bounds[1] > 1 && lastGroup != null && lastGroup[0]) return "a repetition inside a repeated group";
                if (bounds[1] > 1 && lastGroup != null && lastGroup[1]) return "an alternation inside a repeated group";
                top[0] |= bounds[1] > bounds[0]; // a repetition of variable length
                i = c == '{' ? regex.indexOf('}', i) + 1 : i + 1;
                if (i < regex.length() && (regex.charAt(i) == '?' || regex.charAt(i) == '+')) i++;
            } else {
                i++;
            }
            lastGroup = closed;
        }
        return null;
    }

    /** {min, max} of the quantifier {@code {n}}, {@code {n,}} or {@code {n,m}} at {@code i}; null when it is none. */
    private static long[] bounds(String regex, int i) {
        int end = regex.indexOf('}', i);
        if (end < 0) return null;
        String body = regex.substring(i + 1, end);
        if (!body.matches("\\d{1,9}(,\\d{0,9})?")) return null;
        int comma = body.indexOf(',');
        long min = Long.parseLong(comma < 0 ? body : body.substring(0, comma));
        long max = comma < 0 ? min : comma == body.length() - 1 ? Long.MAX_VALUE : Long.parseLong(body.substring(comma + 1));
        return new long[] {min, max};
    }

    private static int classEnd(String regex, int open) {
        int depth = 0;
        for (int i = open; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if (c == '\\') i++;
            else if (c == '[') depth++;
            else if (c == ']' && --depth == 0) return i + 1;
        }
        return regex.length();
    }
}
