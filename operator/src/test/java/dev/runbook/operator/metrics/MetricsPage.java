package dev.runbook.operator.metrics;

import dev.runbook.operator.testkit.ProjectFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metrics docs/metrics.md documents, and those a scrape holds, by family name as the scrape writes them: the
 * operator's own in the first column of the page's tables headed {@code | metric |}; the JVM's and the process's
 * named in its section "JVM and process" ({@code jvm_buffer_*} standing for every family of that prefix).
 */
public final class MetricsPage {
    static final Path PAGE = ProjectFiles.root().resolve("docs/metrics.md");
    /** The families Micrometer's JVM binders publish: the page names the ones worth knowing, not every one. */
    public static final Pattern JVM = Pattern.compile("(jvm|process|system)_.*");
    private static final Pattern NAME = Pattern.compile("`([a-z][a-z0-9_]*\\*?)`");
    private static final Pattern TYPE = Pattern.compile("(?m)^# TYPE (\\S+) (\\S+)$");

    private MetricsPage() {}

    /** The operator's own metrics: the first column of every {@code | metric | ...} table. */
    public static Set<String> tables() {
        Set<String> names = new TreeSet<>();
        boolean inTable = false;
        for (String line : text().split("\n")) {
            if (!line.startsWith("|")) inTable = false;
            else if (line.matches("\\|\\s*metric\\s*\\|.*")) inTable = true;
            else if (inTable && !line.matches("\\|[\\s|:-]+")) names.addAll(names(line.split("\\|")[1]));
        }
        return names;
    }

    /** The JVM's and the process's metrics the page names, in its section "JVM and process". */
    static Set<String> jvm() {
        String text = text();
        int start = text.indexOf("### JVM and process");
        if (start < 0) throw new AssertionError(PAGE + " has no section '### JVM and process'");
        int end = text.indexOf("\n## ", start);
        Set<String> names = names(text.substring(start, end < 0 ? text.length() : end));
        names.removeIf(name -> !JVM.matcher(name.replace("*", "")).matches());
        return names;
    }

    /** The families of a Prometheus text scrape, as its {@code # TYPE} lines name them. */
    public static Set<String> families(String scrape) {
        Set<String> families = new TreeSet<>();
        Matcher type = TYPE.matcher(scrape);
        while (type.find()) families.add(type.group(1));
        return families;
    }

    /** Whether a documented name (maybe {@code prefix_*}) names this family. */
    static boolean names(String documented, String family) {
        return documented.endsWith("*") ? family.startsWith(documented.substring(0, documented.length() - 1))
                : documented.equals(family);
    }

    private static Set<String> names(String text) {
        Set<String> names = new TreeSet<>();
        NAME.matcher(text).results().forEach(name -> names.add(name.group(1)));
        return names;
    }

    private static String text() {
        try {
            return Files.readString(PAGE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
