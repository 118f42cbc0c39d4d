package dev.runbook.runbooks;

import dev.runbook.engine.containment.AllowList;
import dev.runbook.postgres.contract.Lsn;
import dev.runbook.postgres.contract.PostgresContract;
import dev.runbook.postgres.vocabulary.Backups;
import dev.runbook.postgres.vocabulary.ObjectStores;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The postgres contract is named once (PostgresContract): every postgres.runbook.dev key the
 * postgres-cluster bundle writes as a string is one of its keys, and docs/reference/postgres-contract.md
 * lists exactly its keys.
 */
class PostgresContractKeysTest {

    private static final Path BUNDLE = Path.of("postgres-cluster").toAbsolutePath();
    private static final Path PAGE = Path.of("..", "docs", "reference", "postgres-contract.md").toAbsolutePath().normalize();
    // A key, or a path that holds one (the caller token's directory /var/run/secrets/postgres.runbook.dev/caller).
    private static final Pattern WRITTEN = Pattern.compile("(/[\\w.-]+)*/?postgres\\.runbook\\.dev/[A-Za-z0-9._/-]*[A-Za-z0-9]");
    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\|");

    @Test
    void everyKeyTheBundleWritesIsAContractKey() throws IOException {
        Map<String, Set<String>> unknown = new TreeMap<>();
        try (Stream<Path> files = Files.walk(BUNDLE)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Set<String> keys = unknownKeys(Files.readString(file, StandardCharsets.UTF_8));
                if (!keys.isEmpty()) unknown.put(BUNDLE.relativize(file).toString(), keys);
            }
        }
        assertThat(unknown).as("postgres.runbook.dev keys that PostgresContract does not name (add them there and to %s)", PAGE)
                .isEmpty();
    }

    @Test
    void aKeyOutsideTheContractIsFound() {
        assertThat(unknownKeys("labels: {postgres.runbook.dev/role: primary, postgres.runbook.dev/rol: x}"))
                .containsExactly("postgres.runbook.dev/rol");
        assertThat(unknownKeys("mountPath: /var/run/secrets/postgres.runbook.dev/caller")).isEmpty();
        assertThat(unknownKeys("mountPath: /var/run/secrets/postgres.runbook.dev/other")).containsExactly("/var/run/secrets/postgres.runbook.dev/other");
    }

    @Test
    void thePageListsEveryContractKeyAndNoOther() throws IOException {
        Set<String> listed = Files.readAllLines(PAGE, StandardCharsets.UTF_8).stream()
                .dropWhile(line -> !line.equals("## Keys")).takeWhile(line -> !line.startsWith("## Where"))
                .map(ROW::matcher).filter(Matcher::find).map(m -> m.group(1)).filter(key -> !key.equals("key"))
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(listed).isEqualTo(contractKeys());
    }

    @Test
    void rulesMayCallTheBundlesFunctionsButNotTheKeyNames() {
        AllowList allowed = AllowList.standard();
        for (Class<?> function : new Class<?>[] {Lsn.class, Backups.class, ObjectStores.class}) {
            assertThat(allowed.permitsClass(function.getName())).as(function.getName()).isTrue();
        }
        assertThat(allowed.permitsType(PostgresContract.class.getName())).isFalse();
    }

    private static Set<String> unknownKeys(String text) {
        Set<String> keys = contractKeys();
        Set<String> unknown = new TreeSet<>();
        Matcher written = WRITTEN.matcher(text);
        while (written.find()) {
            String key = written.group();
            if (!keys.contains(key) && keys.stream().noneMatch(k -> k.startsWith(key + "/"))) unknown.add(key);
        }
        return unknown;
    }

    private static Set<String> contractKeys() {
        Set<String> keys = new TreeSet<>();
        for (Field field : PostgresContract.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                try {
                    keys.add((String) field.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return keys;
    }

}
