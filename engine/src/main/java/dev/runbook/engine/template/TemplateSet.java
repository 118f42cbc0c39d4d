package dev.runbook.engine.template;

import dev.runbook.engine.problem.Problem;
import org.mvel2.CompileException;
import org.mvel2.templates.CompiledTemplate;
import org.mvel2.templates.TemplateCompiler;
import org.mvel2.templates.res.Node;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A bundle's MVEL templates, compiled once. A template is YAML with {@code @{expression}} holes,
 * named by its path under {@code templates/} (e.g. {@code statefulset.yaml}).
 */
public final class TemplateSet {
    public static final String DIRECTORY = "templates/";

    private final Map<String, CompiledTemplate> compiled;
    private final RenderCache cache = new RenderCache();

    private TemplateSet(Map<String, CompiledTemplate> compiled) {
        this.compiled = Collections.unmodifiableMap(compiled);
    }

    /** Compiles every template; each one that fails adds a problem to {@code problems}. */
    public static TemplateSet compile(Map<String, String> files, List<Problem> problems) {
        Map<String, CompiledTemplate> compiled = new TreeMap<>();
        files.forEach((path, text) -> {
            try {
                CompiledTemplate template = TemplateCompiler.compileTemplate(text);
                LoopChecks.insert(template.getRoot());
                compiled.put(path.substring(DIRECTORY.length()), template);
            } catch (CompileException e) {
                problems.add(new Problem(path, Math.max(e.getLineNumber(), 0), Math.max(e.getColumn(), 0),
                        "template does not compile: " + firstLine(e.getMessage())));
            } catch (RuntimeException e) {
                problems.add(Problem.inFile(path, "template does not compile: " + firstLine(e.getMessage())));
            }
        });
        return new TemplateSet(compiled);
    }

    static String firstLine(String message) {
        if (message == null) return "(no message)";
        int newline = message.indexOf('\n');
        return (newline < 0 ? message : message.substring(0, newline)).trim();
    }

    public Set<String> names() { return compiled.keySet(); }

    /** Whether {@code node} is one the engine added to a compiled template (a budget check), not the bundle's. */
    public static boolean isEngineNode(Node node) {
        return LoopChecks.isCheck(node);
    }

    /** The compiled templates by name, as they render: what the containment check reads. */
    public Map<String, CompiledTemplate> compiled() { return compiled; }

    CompiledTemplate get(String name) { return compiled.get(name); }

    RenderCache cache() { return cache; }
}
