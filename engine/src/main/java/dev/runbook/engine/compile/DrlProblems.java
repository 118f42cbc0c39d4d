package dev.runbook.engine.compile;

import dev.runbook.engine.problem.Problem;
import org.drools.drl.parser.ParserError;
import org.kie.internal.builder.KnowledgeBuilderResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    private DrlProblems() {}

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
