package dev.runbook.runbooks;

import dev.runbook.postgres.contract.PromotionReason;
import dev.runbook.postgres.contract.RestoreProgress;
import dev.runbook.postgres.contract.Role;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The values the postgres-cluster bundle and the instance manager exchange under the contract's keys
 * are named once (Role, PromotionReason, RestoreProgress in postgres-contract): every role and reason
 * the bundle's rules and templates write or compare as a string is one of them, and
 * docs/reference/postgres-contract.md#values lists exactly them. (Rules may not call the contract's
 * Java, which holds names for Java, so they keep the strings and this test checks them, as
 * PostgresContractKeysTest does for the keys.)
 */
class PostgresContractValuesTest {

    private static final Path BUNDLE = Path.of("postgres-cluster").toAbsolutePath();
    private static final Path PAGE = Path.of("..", "docs", "reference", "postgres-contract.md").toAbsolutePath().normalize();

    /** Where the bundle writes or compares a role: a Member's role or reportedRole, the role label, the reported-role annotation. */
    private static final List<Pattern> ROLES = List.of(
            Pattern.compile("\\b(?:role|reportedRole)\\s*[!=]=\\s*\"([^\"]*)\""),
            Pattern.compile("\\b(?:role|reportedRole)\\s+(?:not\\s+)?in\\s*\\(([^)]*)\\)"),
            Pattern.compile("\\bget(?:Reported)?Role\\(\\)\\.equals\\(\"([^\"]*)\"\\)"),
            Pattern.compile("\"postgres\\.runbook\\.dev/role\",\\s*\"([^\"]*)\""),
            Pattern.compile("annotation\\(\"postgres\\.runbook\\.dev/reported-role\"\\)\\s*[!=]=\\s*\"([^\"]*)\""),
            Pattern.compile("(?m)^\\s*postgres\\.runbook\\.dev/role:\\s*(\\S+)\\s*$"));
    /** Where the bundle writes or compares status.promotionReason. */
    private static final List<Pattern> REASONS = List.of(
            Pattern.compile("\"promotionReason\",\\s*\"([^\"]*)\""),
            Pattern.compile("str\\(\"status\\.promotionReason\",\\s*\"([^\"]*)\"\\)"),
            Pattern.compile("\\bPromotion\\(reason\\s*[!=]=\\s*\"([^\"]*)\""));
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");
    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\|");

    @Test
    void everyRoleTheBundleUsesIsAContractRole() throws IOException {
        Set<String> used = valuesIn(bundleText(), ROLES);
        // "" is an absent label or report, which both sides read as no role.
        assertThat(used).as("roles the bundle writes or compares (name new ones in Role and on %s)", PAGE)
                .containsAll(Role.ALL).isSubsetOf(union(Role.ALL, List.of("")));
    }

    @Test
    void everyPromotionReasonTheBundleUsesIsAContractReason() throws IOException {
        assertThat(valuesIn(bundleText(), REASONS)).as("promotion reasons the bundle writes or compares")
                .containsExactlyInAnyOrderElementsOf(PromotionReason.ALL);
    }

    @Test
    void theBundleReadsTheRestoredBackupAfterTheContractsPrefix() throws IOException {
        String restore = Files.readString(BUNDLE.resolve("rules/restore.drl"), StandardCharsets.UTF_8);
        assertThat(restore).contains("progress matches \"" + RestoreProgress.RESTORED + ".+\"",
                "$progress.substring(\"" + RestoreProgress.RESTORED + "\".length())");
    }

    @Test
    void aValueOutsideTheContractIsFound() {
        assertThat(valuesIn("Member(role == \"primry\", reportedRole in (\"replica\", \"standby\"))", ROLES))
                .containsExactlyInAnyOrder("primry", "replica", "standby");
        assertThat(valuesIn("labels:\n    postgres.runbook.dev/role: leader\n", ROLES)).containsExactly("leader");
        assertThat(valuesIn("insertLogical(setStatus($cluster, \"promotionReason\", \"failvoer\"));", REASONS)).containsExactly("failvoer");
    }

    @Test
    void thePageListsEveryContractValueAndNoOther() throws IOException {
        List<String> listed = Files.readAllLines(PAGE, StandardCharsets.UTF_8).stream()
                .dropWhile(line -> !line.equals("## Values")).skip(1).takeWhile(line -> !line.startsWith("## "))
                .map(ROW::matcher).filter(Matcher::find).map(m -> m.group(1)).filter(value -> !value.equals("value")).toList();
        List<String> named = new ArrayList<>();
        Stream.of(Role.ALL, PromotionReason.ALL, RestoreProgress.ALL).flatMap(List::stream).map(String::trim).forEach(named::add);
        assertThat(listed).containsExactlyInAnyOrderElementsOf(named);
    }

    private static String bundleText() throws IOException {
        StringBuilder text = new StringBuilder();
        for (String folder : List.of("rules", "templates")) {
            try (Stream<Path> files = Files.walk(BUNDLE.resolve(folder))) {
                for (Path file : files.filter(Files::isRegularFile).sorted().toList()) text.append(Files.readString(file, StandardCharsets.UTF_8)).append('\n');
            }
        }
        return text.toString();
    }

    private static Set<String> valuesIn(String text, List<Pattern> patterns) {
        Set<String> values = new TreeSet<>();
        for (Pattern pattern : patterns) {
            Matcher found = pattern.matcher(text);
            while (found.find()) {
                String value = found.group(1);
                Matcher quoted = QUOTED.matcher(value);
                if (value.contains("\"")) {
                    while (quoted.find()) values.add(quoted.group(1));
                } else {
                    values.add(value);
                }
            }
        }
        return values;
    }

    private static Set<String> union(List<String> a, List<String> b) {
        return Stream.concat(a.stream(), b.stream()).collect(Collectors.toCollection(TreeSet::new));
    }
}
