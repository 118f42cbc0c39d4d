package dev.runbook.operator.docs;

import dev.runbook.operator.testkit.ProjectFiles;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The three tables that tell a reader what each module is for (README.md's layout, docs/contributing.md's
 * modules, docs/architecture.md's modules) name exactly the modules the build has: a module added or
 * removed in pom.xml and forgotten in a table fails here, with the table to fix.
 */
class ModuleTablesTest {
    private static final Path ROOT = ProjectFiles.root();
    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    /** A table row whose first cell is a module's name in backquotes, with or without a trailing slash. */
    private static final Pattern ROW = Pattern.compile("(?m)^\\| `([a-z][a-z-]*)/?` \\|");

    @Test
    void readmesLayoutNamesEveryModule() throws IOException {
        assertThat(modulesIn(rows("README.md"))).as("the modules in README.md's layout table (rows \"| `NAME/` | ...\"), against pom.xml")
                .containsExactlyInAnyOrderElementsOf(modules());
    }

    @Test
    void theContributingGuideNamesEveryModule() throws IOException {
        assertThat(modulesIn(rows("docs/contributing.md"))).as("the modules in docs/contributing.md#the-modules, against pom.xml")
                .containsExactlyInAnyOrderElementsOf(modules());
    }

    @Test
    void theArchitecturePageNamesEveryModuleButTheBenchmarks() throws IOException {
        Set<String> built = modules();
        built.remove("benchmarks");    // a profile's module, described on the performance page
        assertThat(modulesIn(rows("docs/architecture.md"))).as("the modules in docs/architecture.md's module table, against pom.xml")
                .containsExactlyInAnyOrderElementsOf(built);
    }

    /** Every module of the root pom, the profiles' included. */
    private static Set<String> modules() throws IOException {
        Set<String> modules = new TreeSet<>();
        Matcher m = MODULE.matcher(Files.readString(ROOT.resolve("pom.xml")));
        while (m.find()) modules.add(m.group(1).trim());
        assertThat(modules).as("modules in pom.xml").contains("rules", "engine", "operator");
        return modules;
    }

    private static Set<String> rows(String page) throws IOException {
        Set<String> names = new TreeSet<>();
        Matcher m = ROW.matcher(Files.readString(ROOT.resolve(page)));
        while (m.find()) names.add(m.group(1));
        return names;
    }

    /** The rows that name a directory with a pom.xml: a table may also list plain directories (docs/, deploy/). */
    private static Set<String> modulesIn(Set<String> rows) {
        Set<String> modules = new TreeSet<>();
        for (String name : rows) {
            if (Files.isRegularFile(ROOT.resolve(name).resolve("pom.xml"))) modules.add(name);
        }
        return modules;
    }
}
