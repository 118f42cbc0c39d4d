package dev.runbook.engine.containment;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a bundle's compiled code calls instead of the JDK's regular-expression methods (the engine
 * rewrites the calls, {@link BudgetInstrumenter}): the same match, over an input that checks the
 * budget each time the matcher reads a character. A backtracking match reads characters without end,
 * so it reaches a check and stops at the deadline like a loop in rule code; without this, the match
 * would run inside one JDK call that no check reaches. The same results as the JDK's methods, which
 * are defined by these same Pattern calls.
 */
public final class RegexGuard {
    private RegexGuard() {}

    /** {@code text.matches(regex)} */
    public static boolean matches(String text, String regex) {
        return Pattern.compile(regex).matcher(budgeted(text)).matches();
    }

    /** {@code text.replaceAll(regex, replacement)} */
    public static String replaceAll(String text, String regex, String replacement) {
        return Pattern.compile(regex).matcher(budgeted(text)).replaceAll(replacement);
    }

    /** {@code text.replaceFirst(regex, replacement)} */
    public static String replaceFirst(String text, String regex, String replacement) {
        return Pattern.compile(regex).matcher(budgeted(text)).replaceFirst(replacement);
    }

    /** {@code text.split(regex)} */
    public static String[] split(String text, String regex) {
        return split(text, regex, 0);
    }

    /** {@code text.split(regex, limit)} */
    public static String[] split(String text, String regex, int limit) {
        return Pattern.compile(regex).split(budgeted(text), limit);
    }

    /** {@code Pattern.matches(regex, input)} */
    public static boolean patternMatches(String regex, CharSequence input) {
        return Pattern.compile(regex).matcher(budgeted(input)).matches();
    }

    /** {@code pattern.matcher(input)} */
    public static Matcher matcher(Pattern pattern, CharSequence input) {
        return pattern.matcher(budgeted(input));
    }

    /** {@code pattern.split(input)} */
    public static String[] patternSplit(Pattern pattern, CharSequence input) {
        return pattern.split(budgeted(input));
    }

    /** {@code pattern.split(input, limit)} */
    public static String[] patternSplit(Pattern pattern, CharSequence input, int limit) {
        return pattern.split(budgeted(input), limit);
    }

    private static CharSequence budgeted(CharSequence input) {
        return input == null ? null : new Budgeted(input);
    }

    /** An input that checks the budget at every character read. */
    private record Budgeted(CharSequence text) implements CharSequence {
        @Override
        public char charAt(int index) {
            RuleBudget.check();
            return text.charAt(index);
        }

        @Override
        public int length() { return text.length(); }

        @Override
        public CharSequence subSequence(int start, int end) { return text.subSequence(start, end); }

        @Override
        public String toString() { return text.toString(); }
    }
}
