package dev.runbook.engine.compile;

import dev.runbook.engine.problem.Problem;
import org.drools.drl.parser.ParserError;
import org.kie.internal.builder.KnowledgeBuilderResult;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what Drools reports into {@code rules/x.drl:LINE:COL: message}. Drools gives the line; the
 * column comes from the parser when it knows it, else from the first occurrence on that line of a
 * name quoted in the message, else from the line's first non-blank character.
 */
final class DrlProblems {
    private static final Pattern PARSER_PREFIX = Pattern.compile("^\\[ERR \\d+\\] Line (\\d+):(\\d+)\\s*");
    private static final Pattern QUOTED = Pattern.compile("['\"]([A-Za-z_$][\\w$.]*)['\"]");
    private static final Pattern STRICT_MODE_MEMBER = Pattern.compile("strict-mode: [\\w$.]+\\.([A-Za-z_$][\\w$]*)\\(\\)");
    private static final Pattern ANALYSED_EXPRESSION = Pattern.compile("Unable to Analy[sz]e Expression (.+?):");
    private static final Pattern UNABLE_TO_RESOLVE = Pattern.compile("(?:field|method|Unable to resolve ObjectType|"
            + "unable to resolve type|cannot be resolved)\\W+([A-Za-z_$][\\w$]*)", Pattern.CASE_INSENSITIVE);

    /** The one line that stands for the knock-on errors of a parse error. */
    private static final Pattern KNOCK_ON = Pattern.compile("and \\d+ more errors? in .*");

    private DrlProblems() {}

    /**
     * Drools' errors as problems, the cause first. When a file does not parse, Drools drops what the
     * package declares, and every rule of the other files that uses a declared type, a function or a
     * binding from it fails as well, often without a line: hundreds of errors, the real one among them.
     * So when there are parse errors they are the problems, and everything else is said in one line
     * after them: how many more, in which files, and to compile again once the parse errors are fixed.
     */
    static List<Problem> errors(Collection<KnowledgeBuilderResult> results, Map<String, String> sources) {
        List<Problem> parse = new ArrayList<>();
        List<Problem> other = new ArrayList<>();
        for (KnowledgeBuilderResult result : results) {
            (result instanceof ParserError ? parse : other).add(of(result, sources));
        }
        // Drools follows a parse error with "Parser returned a null Package" for the same file: say it once.
        java.util.function.Predicate<Problem> repeated = p -> p.line() == 0 && p.message().startsWith("Parser returned a null Package")
                && parse.stream().anyMatch(error -> error.file().equals(p.file()) && error.line() > 0);
        parse.removeIf(repeated);
        other.removeIf(repeated);
        if (parse.isEmpty() || other.isEmpty()) {
            parse.addAll(other);
            return parse;
        }
        Set<String> files = new TreeSet<>();
        other.forEach(p -> files.add(p.file()));
        parse.add(Problem.inFile(parse.get(0).file(), "and " + other.size() + " more error" + (other.size() == 1 ? "" : "s")
                + " in " + String.join(", ", files) + ", which may only follow from the parse error" + (parse.size() == 1 ? "" : "s")
                + " above (a file that does not parse declares nothing): fix " + (parse.size() == 1 ? "it" : "them") + " first"));
        return parse;
    }

    /**
     * Problems in the order a reader needs them: those at a place ({@code file:line}) by file and line,
     * then those known only by their file, and last the line that summarises knock-on errors.
     */
    static List<Problem> ordered(List<Problem> problems) {
        List<Problem> sorted = new ArrayList<>(problems);
        sorted.sort(Comparator.comparing((Problem p) -> p.line() == 0 && KNOCK_ON.matcher(p.message()).matches())
                .thenComparing(p -> p.line() == 0)
                .thenComparing(Problem::file).thenComparingInt(Problem::line).thenComparingInt(Problem::column));
        return sorted;
    }

    static Problem of(KnowledgeBuilderResult result, Map<String, String> sources) {
        String file = result.getResource() == null || result.getResource().getSourcePath() == null
                ? "rules" : result.getResource().getSourcePath();
        String message = oneLine(result.getMessage());
        int line = 0;
        int column = 0;
        Matcher prefix = PARSER_PREFIX.matcher(message);
        if (prefix.find()) {
            line = Integer.parseInt(prefix.group(1));
            column = Integer.parseInt(prefix.group(2)) + 1;
            message = message.substring(prefix.end());
        }
        if (line <= 0) {
            line = firstLine(result.getLines());
        }
        if (result instanceof ParserError parserError && column <= 0 && parserError.getCol() >= 0) {
            column = parserError.getCol() + 1;
        }
        String source = sources.get(file);
        if (line > 0 && column <= 0 && source != null) {
            column = columnOnLine(source, line, message);
        }
        return new Problem(file, line, column, message);
    }

    private static int firstLine(int[] lines) {
        if (lines == null) return 0;
        for (int l : lines) if (l > 0) return l;
        return 0;
    }

    static String oneLine(String message) {
        if (message == null) return "(no message)";
        return message.replaceAll("\\s*\\n\\s*", " ").replaceAll("\\s+", " ").trim();
    }

    /** The 1-based column of the most telling token of {@code line}. */
    static int columnOnLine(String source, int line, String message) {
        String[] lines = source.split("\n", -1);
        if (line > lines.length) return 0;
        String text = lines[line - 1];
        for (String candidate : candidates(message)) {
            int at = text.indexOf(candidate);
            if (at >= 0) return at + 1;
        }
        for (int i = 0; i < text.length(); i++) {
            if (!Character.isWhitespace(text.charAt(i))) return i + 1;
        }
        return 1;
    }

    private static List<String> candidates(String message) {
        List<String> result = new ArrayList<>();
        Matcher member = STRICT_MODE_MEMBER.matcher(message);
        while (member.find()) result.add(member.group(1));
        Matcher expression = ANALYSED_EXPRESSION.matcher(message);
        while (expression.find()) result.add(expression.group(1).trim());
        Matcher quoted = QUOTED.matcher(message);
        while (quoted.find()) result.add(quoted.group(1));
        Matcher unresolved = UNABLE_TO_RESOLVE.matcher(message);
        while (unresolved.find()) result.add(unresolved.group(1));
        return result;
    }
}
