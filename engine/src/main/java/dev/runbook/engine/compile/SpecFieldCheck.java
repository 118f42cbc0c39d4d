package dev.runbook.engine.compile;

import dev.runbook.engine.bundle.CrdSchemas;
import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.problem.Problem;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A lint check: rules that read a {@code spec.} field of the primary resource which the bundle's CRD
 * schema does not declare. A real API server prunes undeclared fields when it stores the object, so
 * such a rule never sees a value there, silently; the embedded test server and scenarios do not prune,
 * so tests pass. Reported as warnings, {@code file:line:col}.
 *
 * <p>What counts as a read of the primary: a path literal ({@code "spec.a.b"}) as the first argument
 * of a method called inside a {@code Primary(...)} pattern, or on a variable bound to one
 * ({@code $c : Primary()} ... {@code $c.str("spec.a.b")}). A field under
 * {@code x-kubernetes-preserve-unknown-fields} or {@code additionalProperties} is declared.
 */
public final class SpecFieldCheck {
    private static final Pattern BINDING = Pattern.compile("(\\$\\w+)\\s*:\\s*Primary\\s*\\(");
    private static final Pattern CALL = Pattern.compile("(\\$\\w+\\s*\\.\\s*)?\\w+\\s*\\(\\s*\"(spec(?:\\.[\\w-]+)+)\"");

    private SpecFieldCheck() {}

    /**
     * @param drl     the bundle's rule files by path
     * @param crds    the bundle's CRD files by path (crds/*.yaml)
     * @param primary the primary kind
     * @return one warning per undeclared read; none when no CRD of the bundle defines the primary kind
     */
    public static List<Problem> check(Map<String, String> drl, Map<String, String> crds, Kind primary) {
        Map<String, Object> spec = specSchema(crds, primary);
        if (spec == null) return List.of();
        List<Problem> warnings = new ArrayList<>();
        drl.forEach((file, text) -> {
            String code = withoutComments(text);
            Set<String> primaries = new HashSet<>();
            Matcher binding = BINDING.matcher(code);
            while (binding.find()) primaries.add(binding.group(1));
            Matcher call = CALL.matcher(code);
            while (call.find()) {
                String receiver = call.group(1) == null ? null : call.group(1).replaceAll("[\\s.]", "");
                boolean onPrimary = receiver != null ? primaries.contains(receiver) : insidePrimaryPattern(code, call.start());
                String path = call.group(2);
                if (onPrimary && !declared(spec, path.substring("spec.".length()).split("\\."))) {
                    int line = 1 + (int) code.substring(0, call.start(2)).chars().filter(c -> c == '\n').count();
                    int column = call.start(2) - code.lastIndexOf('\n', call.start(2) - 1);
                    warnings.add(new Problem(file, line, column, path + " is not in the schema of " + primary.kind()
                            + "'s CRD: a real API server drops undeclared fields, so this rule never sees a value there; "
                            + "declare it in crds/ (or fix the path)"));
                }
            }
        });
        return warnings;
    }

    /** Whether {@code at} lies inside the parentheses of a {@code Primary(} pattern. */
    private static boolean insidePrimaryPattern(String code, int at) {
        int open = code.lastIndexOf("Primary(", at);
        if (open < 0) return false;
        int depth = 0;
        for (int i = open + "Primary".length(); i < at; i++) {
            char c = code.charAt(i);
            if (c == '(') depth++;
            if (c == ')' && --depth == 0) return false;
        }
        return depth > 0;
    }

    @SuppressWarnings("unchecked")
    private static boolean declared(Map<String, Object> schema, String[] path) {
        Map<String, Object> node = schema;
        for (String segment : path) {
            if (Boolean.TRUE.equals(node.get("x-kubernetes-preserve-unknown-fields"))) return true;
            if ("array".equals(node.get("type")) && node.get("items") instanceof Map<?, ?> items) node = (Map<String, Object>) items;
            Object properties = node.get("properties");
            if (properties instanceof Map<?, ?> map && map.get(segment) instanceof Map<?, ?> child) {
                node = (Map<String, Object>) child;
            } else {
                return node.get("additionalProperties") != null && !Boolean.FALSE.equals(node.get("additionalProperties"));
            }
        }
        return true;
    }

    /** The schema of {@code spec} of the primary's version, from the CRD that defines it; null when none does. */
    private static Map<String, Object> specSchema(Map<String, String> crds, Kind primary) {
        return CrdSchemas.of(crds).specSchema(primary);
    }

    /** The text with comments blanked out (lines and columns kept), so that commented-out code is not read. */
    private static String withoutComments(String text) {
        StringBuilder out = new StringBuilder(text);
        boolean inString = false;
        for (int i = 0; i < out.length(); i++) {
            char c = out.charAt(i);
            if (c == '"' && (i == 0 || out.charAt(i - 1) != '\\')) inString = !inString;
            if (inString) continue;
            if (c == '/' && i + 1 < out.length() && out.charAt(i + 1) == '/') {
                while (i < out.length() && out.charAt(i) != '\n') out.setCharAt(i++, ' ');
            } else if (c == '/' && i + 1 < out.length() && out.charAt(i + 1) == '*') {
                while (i + 1 < out.length() && !(out.charAt(i) == '*' && out.charAt(i + 1) == '/')) {
                    if (out.charAt(i) != '\n') out.setCharAt(i, ' ');
                    i++;
                }
            }
        }
        return out.toString();
    }
}
