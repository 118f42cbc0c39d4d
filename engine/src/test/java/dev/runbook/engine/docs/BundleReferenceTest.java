package dev.runbook.engine.docs;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.BundleSpecParser;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/reference/bundle.md must document exactly the keys bundle.yaml accepts, and its complete
 * example must parse.
 */
class BundleReferenceTest {
    private static final Pattern FIELD_ROW = Pattern.compile("^\\| `([A-Za-z.\\[\\]]+)` \\|", Pattern.MULTILINE);

    private static String page() throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("docs/reference/bundle.md"))) dir = dir.getParent();
        assertThat(dir).as("docs/reference/bundle.md above the working directory").isNotNull();
        return Files.readString(dir.resolve("docs/reference/bundle.md"));
    }

    @Test
    void theFieldTableListsExactlyTheAcceptedKeys() throws IOException {
        Set<String> accepted = new TreeSet<>();
        BundleSpecParser.KEYS.forEach((section, keys) -> {
            if (!section.isEmpty()) accepted.add(section.replace(".NAME", "").replaceAll("\\[]$", ""));
            keys.forEach(key -> accepted.add(section.isEmpty() ? key : section + "." + key));
        });
        accepted.remove("parameters");
        accepted.add("parameters");
        Set<String> documented = new TreeSet<>();
        Matcher row = FIELD_ROW.matcher(page());
        while (row.find()) documented.add(row.group(1));

        assertThat(documented).isEqualTo(accepted);
    }

    @Test
    void theCompleteExampleParses() throws IOException {
        String page = page();
        int start = page.indexOf("```yaml bundle.yaml\n");
        assertThat(start).as("the page has a ```yaml bundle.yaml block").isNotNegative();
        String yaml = page.substring(start + "```yaml bundle.yaml\n".length(), page.indexOf("```", start + 10));

        BundleSpec spec = BundleSpecParser.parse(yaml);
        assertThat(spec.name()).isEqualTo("postgres-cluster");
        List<String> secondaryKinds = new ArrayList<>();
        spec.secondaries().forEach(s -> secondaryKinds.add(s.kind().kind()));
        assertThat(secondaryKinds).containsExactly("Pod", "StatefulSet", "Node");
        assertThat(spec.parameters()).containsKeys("failoverDelay", "backupRetention");
    }
}
