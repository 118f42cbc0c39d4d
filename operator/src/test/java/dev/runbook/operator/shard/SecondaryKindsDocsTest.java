package dev.runbook.operator.shard;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.BundleSpecParser;
import dev.runbook.engine.bundle.SecondaryKind;
import dev.runbook.operator.observe.SecondaryMappers;
import dev.runbook.operator.testkit.ProjectFiles;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/sharding.md's table of the shipped bundles' secondary kinds against their bundle.yaml and
 * templates: every secondary kind has its row and no row names another; "follows one primary" is what
 * {@link SecondaryMappers#followsOnePrimary} decides; and "labelled at create by" is the act phase for a
 * kind the bundle's templates make, the webhook for one others make from them, and nobody for a kind
 * watched whole.
 */
class SecondaryKindsDocsTest {
    private static final List<String> BUNDLES = List.of("postgres-cluster", "app-release");
    private static final Pattern KIND_LINE = Pattern.compile("(?m)^kind:\\s*(\\S+)\\s*$");

    record Row(String bundle, String kind, String follows, String labelledBy) {}

    @Test
    void theTableSaysWhatTheCodeDecidesForEveryShippedSecondaryKind() throws Exception {
        List<Row> rows = rows();
        Set<String> documented = new TreeSet<>();
        for (Row row : rows) documented.add(row.bundle() + " " + row.kind());
        Set<String> declared = new TreeSet<>();
        for (String bundle : BUNDLES) {
            Path directory = ProjectFiles.root().resolve("runbooks").resolve(bundle);
            BundleSpec spec = BundleSpecParser.parse(Files.readString(directory.resolve(BundleSpecParser.FILE)));
            Set<String> made = templateKinds(directory.resolve("templates"));
            for (SecondaryKind kind : spec.secondaries()) {
                declared.add(bundle + " " + kind.kind().kind());
                Row row = rows.stream().filter(r -> r.bundle().equals(bundle) && r.kind().equals(kind.kind().kind())).findFirst()
                        .orElseThrow(() -> new AssertionError("docs/sharding.md#secondaries has no row for " + bundle + " " + kind.kind()));
                boolean follows = SecondaryMappers.followsOnePrimary(spec.primary(), kind);
                assertThat(row.follows()).as("%s %s: follows one primary", bundle, kind.kind()).startsWith(follows ? "yes" : "no");
                String labelledBy = !follows ? "—" : made.contains(kind.kind().kind()) ? "the act phase" : "the webhook";
                assertThat(row.labelledBy()).as("%s %s: labelled at create by", bundle, kind.kind()).startsWith(labelledBy);
            }
        }
        assertThat(documented).as("rows of docs/sharding.md#secondaries").isEqualTo(declared);
    }

    private static Set<String> templateKinds(Path templates) throws Exception {
        Set<String> kinds = new TreeSet<>();
        try (Stream<Path> files = Files.list(templates)) {
            for (Path file : files.toList()) KIND_LINE.matcher(Files.readString(file)).results().forEach(m -> kinds.add(m.group(1)));
        }
        return kinds;
    }

    /** The rows of the table headed {@code | bundle | kind | mapping | follows one primary | labelled at create by |}. */
    private static List<Row> rows() throws Exception {
        List<Row> rows = new ArrayList<>();
        boolean inTable = false;
        for (String line : Files.readAllLines(ProjectFiles.root().resolve("docs/sharding.md"))) {
            if (!line.startsWith("|")) inTable = false;
            else if (line.matches("\\|\\s*bundle\\s*\\|\\s*kind\\s*\\|\\s*mapping\\s*\\|\\s*follows one primary\\s*\\|.*")) inTable = true;
            else if (inTable && !line.matches("\\|[\\s|:-]+")) {
                String[] cells = line.split("\\|");
                rows.add(new Row(cells[1].trim(), cells[2].trim(), cells[4].trim(), cells[5].trim()));
            }
        }
        assertThat(rows).as("the secondary kinds table of docs/sharding.md").isNotEmpty();
        return rows;
    }
}
