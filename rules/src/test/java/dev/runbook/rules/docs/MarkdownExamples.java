package dev.runbook.rules.docs;

import dev.runbook.rules.fact.Params;
import dev.runbook.rules.fact.Primary;
import dev.runbook.rules.fact.Resource;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Reads the runnable examples of a page of docs/reference.
 *
 * <p>The page is read from top to bottom. These fenced blocks, told apart by their info string,
 * define the values that the examples after them use; a later block of the same name replaces an
 * earlier one:
 * <ul>
 *   <li>{@code ```yaml object NAME} holds one Kubernetes object: {@code NAME} becomes
 *       {@code new Resource(map)}. Without a NAME it is called {@code resource}.</li>
 *   <li>{@code ```yaml primary NAME} is the same for {@code new Primary(map)}; by default {@code primary}.</li>
 *   <li>{@code ```yaml params NAME} holds parameter values: {@code new Params(map)}; by default {@code params}.</li>
 *   <li>{@code ```java clock} holds one line {@code Clock NAME = EXPRESSION;}.</li>
 * </ul>
 *
 * <p>Two kinds of examples are read:
 * <ul>
 *   <li>Each row of a {@code | call | result |} table: a call and its documented result (see
 *       {@link ExampleEvaluator#evaluate}).</li>
 *   <li>A {@code ```java action} block holds one expression that makes an action; the next fenced
 *       block must be a plain {@code ```yaml} block, the action's YAML form.</li>
 * </ul>
 * Other fenced blocks ({@code drl}, plain {@code yaml} not after a {@code java action}) are skipped,
 * tables inside them included.
 */
public final class MarkdownExamples {

    private static final Path DOCS = Path.of("docs", "reference");
    private static final Pattern FENCE = Pattern.compile("^```\\s*(.*)$");
    private static final Pattern HEADER = Pattern.compile("\\|\\s*call\\s*\\|\\s*result\\s*\\|");
    private static final Pattern SEPARATOR = Pattern.compile("\\|\\s*-{3,}\\s*\\|\\s*-{3,}\\s*\\|");
    private static final Pattern ROW = Pattern.compile("\\|\\s*`([^`]+)`\\s*\\|\\s*`([^`]+)`\\s*\\|");
    private static final Pattern CLOCK = Pattern.compile("Clock\\s+(\\w+)\\s*=\\s*(.+);");

    private MarkdownExamples() {
    }

    /**
     * One runnable example: a table row ({@code action} false: {@code expected} is the documented
     * result) or an action with its YAML form ({@code action} true: {@code expected} is the YAML),
     * with the names defined above it.
     */
    public record Example(String page, int line, String call, String expected, boolean action,
                          Map<String, Object> names) {
        @Override
        public String toString() {
            return page + ":" + line + " " + call.replaceAll("\\s+", " ");
        }
    }

    /**
     * The examples of docs/reference/{@code name}, in page order; {@code evaluator} evaluates the
     * expressions of {@code java clock} blocks.
     */
    public static List<Example> read(String name, ExampleEvaluator evaluator) throws IOException {
        List<String> lines = Files.readAllLines(page(name), StandardCharsets.UTF_8);
        Map<String, Object> names = new HashMap<>();
        List<Example> examples = new ArrayList<>();
        Example pendingAction = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher fence = FENCE.matcher(line);
            if (fence.matches()) {
                String info = fence.group(1).strip();
                int start = i + 1;
                int end = start;
                while (end < lines.size() && !lines.get(end).strip().equals("```")) end++;
                if (end == lines.size()) fail("%s line %d: the fenced block is not closed", name, i + 1);
                String body = String.join("\n", lines.subList(start, end));
                if (pendingAction != null) {
                    if (!info.equals("yaml")) {
                        fail("%s line %d: a ```java action block must be followed by a ```yaml block", name, i + 1);
                    }
                    examples.add(new Example(name, pendingAction.line(), pendingAction.call(), body, true,
                            pendingAction.names()));
                    pendingAction = null;
                } else {
                    pendingAction = define(name, i + 1, info, body, names, evaluator);
                }
                i = end;
                continue;
            }
            if (HEADER.matcher(line.strip()).matches()) {
                assertThat(lines.get(i + 1).strip()).as("%s line %d: the separator under | call | result |", name, i + 2)
                        .matches(SEPARATOR);
                int j = i + 2;
                for (; j < lines.size() && lines.get(j).strip().startsWith("|"); j++) {
                    Matcher row = ROW.matcher(lines.get(j).strip());
                    if (!row.matches()) fail("%s line %d is not | `call` | `result` |: %s", name, j + 1, lines.get(j));
                    examples.add(new Example(name, j + 1, row.group(1), row.group(2), false, Map.copyOf(names)));
                }
                i = j - 1;
            }
        }
        if (pendingAction != null) fail("%s line %d: a ```java action block without its ```yaml form", name, pendingAction.line());
        return examples;
    }

    /** The text of docs/reference/{@code name}. */
    public static String text(String name) throws IOException {
        return Files.readString(page(name), StandardCharsets.UTF_8);
    }

    /** Defines a name from a block; returns the pending example of a {@code java action} block. */
    private static Example define(String page, int line, String info, String body, Map<String, Object> names,
                                  ExampleEvaluator evaluator) {
        String[] words = info.split("\\s+");
        String kind = words.length >= 2 ? words[0] + " " + words[1] : info;
        String name = words.length >= 3 ? words[2] : null;
        try {
            switch (kind) {
                case "yaml object" -> names.put(name == null ? "resource" : name, new Resource(new Yaml().load(body)));
                case "yaml primary" -> names.put(name == null ? "primary" : name, new Primary(new Yaml().load(body)));
                case "yaml params" -> names.put(name == null ? "params" : name, new Params(new Yaml().load(body)));
                case "java clock" -> {
                    Matcher m = CLOCK.matcher(body.strip());
                    if (!m.matches()) fail("%s line %d: a ```java clock block holds Clock NAME = EXPRESSION;", page, line);
                    names.put(m.group(1), evaluator.value(m.group(2), names));
                }
                case "java action" -> {
                    return new Example(page, line + 1, body.strip(), null, true, Map.copyOf(names));
                }
                default -> { }
            }
        } catch (RuntimeException e) {
            throw new AssertionError(page + " line " + line + ": the ```" + info + " block does not define a value: " + e, e);
        }
        return null;
    }

    /** The page, found from the working directory (the rules module) or any directory above it. */
    private static Path page(String name) {
        Path relative = DOCS.resolve(name);
        Path start = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(relative))) return dir.resolve(relative);
        }
        throw new AssertionError(relative + " not found in " + start + " or any directory above it");
    }
}
