package dev.runbook.cli.rbac;

import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What the Roles a bundle's templates make grant, by {@code group/resource}. RBAC lets whoever creates
 * a Role, or binds one, grant only permissions it holds itself (its escalation check; the alternative,
 * the {@code escalate} and {@code bind} verbs, would let the operator grant anything): so what a
 * template Role grants, the operator needs as well ({@link BundleRbac#needed}). postgres-cluster's
 * instances' Role is one (templates/instance-role.yaml).
 *
 * <p>A template is read with every {@code @{...}} expression standing for a name and every
 * {@code @if{}}/{@code @foreach{}} line dropped, so that each rule it could ever render is counted;
 * {@code resourceNames} narrow a rule, but the operator's Role grants the verbs namespace-wide anyway.
 */
public final class TemplateRoles {
    private TemplateRoles() {}

    /** The templates (file names) under {@code templates} that make a Role. */
    public static List<String> files(Path templates) {
        if (!Files.isDirectory(templates)) return List.of();
        try (Stream<Path> files = Files.list(templates)) {
            return files.filter(f -> f.toString().endsWith(".yaml")).filter(TemplateRoles::makesRole)
                    .map(f -> f.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every verb on every {@code group/resource} that the Roles of {@code templates} grant. */
    public static Map<String, Set<String>> grants(Path templates) {
        Map<String, Set<String>> grants = new TreeMap<>();
        for (String file : files(templates)) {
            Object rules = asYaml(templates.resolve(file), file).get("rules");
            if (!(rules instanceof List<?> list)) continue;
            for (Object item : list) {
                if (!(item instanceof Map<?, ?> rule)) continue;
                for (Object group : strings(rule.get("apiGroups"))) {
                    for (Object resource : strings(rule.get("resources"))) {
                        grants.computeIfAbsent(group + "/" + resource, k -> new TreeSet<>())
                                .addAll(strings(rule.get("verbs")).stream().map(String::valueOf).toList());
                    }
                }
            }
        }
        return grants;
    }

    private static boolean makesRole(Path template) {
        String text = read(template);
        return text.lines().anyMatch(line -> line.equals("kind: Role"))
                && text.lines().anyMatch(line -> line.startsWith("apiVersion: rbac.authorization.k8s.io/"));
    }

    private static Map<?, ?> asYaml(Path template, String file) {
        StringBuilder plain = new StringBuilder();
        for (String line : read(template).lines().toList()) {
            if (line.trim().matches("@(if|else|elseif|foreach|end)\\{.*")) continue;
            plain.append(line.replaceAll("@\\{[^}]*}", "name")).append('\n');
        }
        try {
            Object document = new Yaml(new SafeConstructor(new LoaderOptions())).load(plain.toString());
            if (document instanceof Map<?, ?> map) return map;
        } catch (RuntimeException e) {
            throw new InvalidInputException(Problem.inFile("templates/" + file, "cannot read the Role's rules to derive the"
                    + " operator's permissions: " + e.getMessage().lines().findFirst().orElse("")));
        }
        throw new InvalidInputException(Problem.inFile("templates/" + file, "a Role template must render one object"));
    }

    private static List<?> strings(Object value) {
        return value instanceof List<?> list ? list : List.of();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new InvalidInputException(Problem.inFile(file.getFileName().toString(), "cannot read: " + e.getMessage()));
        }
    }
}
