package dev.runbook.benchmarks;

import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Prints, as a Markdown table, where each compile path places three kinds of mistake in one small
 * DRL file: a syntax error, an unknown field in a pattern, an unknown method in a consequence.
 * Compared: the classic compiler's raw results, the engine's {@link BundleCompiler} (classic, with
 * its own column finding), and the executable model's messages.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.runbook.benchmarks.ErrorReport</pre>
 */
public final class ErrorReport {
    private static final String FILE = "rules/broken.drl";

    /** Line 10 and 12 are replaced by each case; the file is otherwise valid. */
    private static final String TEMPLATE = """
            package bench

            import dev.runbook.rules.fact.Primary
            import dev.runbook.rules.fact.Resource
            import function dev.runbook.rules.action.Actions.label

            rule "Label the pods"
            when
                $store : Primary()
                $pod : Resource(kind == "Pod", hasLabel("app.kubernetes.io/instance", $store.name))
            then
                insertLogical(label($pod, "role", $pod.getName()));
            end
            """;

    private record Case(String name, int line, String replacement, String token) {}

    private static final List<Case> CASES = List.of(
            new Case("syntax error (missing comma)", 10,
                    "    $pod : Resource(kind == \"Pod\" hasLabel(\"app.kubernetes.io/instance\", $store.name))", "hasLabel"),
            new Case("unknown field in a pattern", 10,
                    "    $pod : Resource(kindd == \"Pod\", hasLabel(\"app.kubernetes.io/instance\", $store.name))", "kindd"),
            new Case("unknown method in a consequence", 12,
                    "    insertLogical(label($pod, \"role\", $pod.getNamee()));", "getNamee"));

    private ErrorReport() {}

    public static void main(String[] args) {
        StringBuilder out = new StringBuilder();
        out.append("| Mistake | Where it is | Classic compiler (raw) | Engine (`BundleCompiler`) | Executable model |\n");
        out.append("|---|---|---|---|---|\n");
        for (Case c : CASES) {
            String drl = replaceLine(TEMPLATE, c.line(), c.replacement());
            int column = c.replacement().indexOf(c.token()) + 1;
            out.append("| ").append(c.name())
                    .append(" | ").append(c.line()).append(':').append(column).append(" `").append(c.token()).append('`')
                    .append(" | ").append(describe(CompilePaths.classic(Map.of(FILE, drl)).errors()))
                    .append(" | ").append(engine(drl))
                    .append(" | ").append(describe(CompilePaths.executableModel(Map.of(FILE, drl)).errors()))
                    .append(" |\n");
        }
        System.out.print(out);
        System.out.println();
        System.out.println("Line:column are 1-based in the second column; the raw results print Drools' own numbers"
                + " (the classic parser's column is 0-based, -1 means none given).");
    }

    private static String engine(String drl) {
        try {
            BundleCompiler.compile(new BundleSource("error-report", Map.of(
                    "bundle.yaml", GeneratedBundle.bundleYaml(), FILE, drl)));
            return "(compiled)";
        } catch (InvalidInputException e) {
            List<String> lines = new ArrayList<>();
            for (Problem p : e.getProblems()) lines.add(cell(p.toString()));
            return String.join("<br>", lines);
        }
    }

    private static String describe(List<CompilePaths.Reported> errors) {
        if (errors.isEmpty()) return "(compiled)";
        List<String> lines = new ArrayList<>();
        for (CompilePaths.Reported r : errors) {
            lines.add("line " + r.line() + ", col " + r.column() + (r.path() == null ? "" : " (" + r.path() + ")")
                    + ": " + cell(r.message()));
        }
        return String.join("<br>", lines);
    }

    private static String cell(String message) {
        String one = message == null ? "(no message)" : message.replaceAll("\\s+", " ").trim();
        if (one.length() > 220) one = one.substring(0, 217) + "...";
        return one.replace("|", "\\|");
    }

    private static String replaceLine(String text, int line, String replacement) {
        String[] lines = text.split("\n", -1);
        lines[line - 1] = replacement;
        return String.join("\n", lines);
    }
}
