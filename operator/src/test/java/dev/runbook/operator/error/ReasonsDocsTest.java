package dev.runbook.operator.error;

import dev.runbook.operator.testkit.ProjectFiles;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reasons of the {@code RunbookApplied} condition as docs/operations.md tabulates them ("What the operator
 * writes on each resource") against {@link Reasons}, where every reason the operator writes is declared: each
 * has its row, and each row names a reason that is still written.
 */
class ReasonsDocsTest {
    private static final Pattern NAME = Pattern.compile("`([A-Za-z]+)`");

    @Test
    void theConditionsTableListsEveryReasonAndNoOther() throws Exception {
        Set<String> coded = new TreeSet<>();
        for (Field field : Reasons.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) coded.add((String) field.get(null));
        }
        Set<String> documented = documented();
        assertThat(coded).as("reasons the operator writes (Reasons) that docs/operations.md's RunbookApplied table lacks: add a row")
                .isSubsetOf(documented);
        assertThat(documented).as("reasons docs/operations.md's RunbookApplied table lists that Reasons no longer has").isSubsetOf(coded);
    }

    /** The second column of the table headed {@code | `RunbookApplied` | reason | when |}. */
    private static Set<String> documented() throws Exception {
        Set<String> reasons = new TreeSet<>();
        boolean inTable = false;
        for (String line : Files.readAllLines(ProjectFiles.root().resolve("docs/operations.md"))) {
            if (!line.startsWith("|")) inTable = false;
            else if (line.matches("\\|\\s*`RunbookApplied`\\s*\\|\\s*reason\\s*\\|.*")) inTable = true;
            else if (inTable && !line.matches("\\|[\\s|:-]+")) NAME.matcher(line.split("\\|")[2]).results().forEach(r -> reasons.add(r.group(1)));
        }
        assertThat(reasons).as("the RunbookApplied table of docs/operations.md").isNotEmpty();
        return reasons;
    }
}
