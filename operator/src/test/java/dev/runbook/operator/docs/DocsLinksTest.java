package dev.runbook.operator.docs;

import dev.runbook.operator.testkit.ProjectFiles;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The docs as a reader follows them: every relative link of README.md and docs/ leads to a file that
 * exists and, with {@code #anchor}, to a heading of that page (the anchors GitHub makes); and so does every
 * {@code docs/PAGE.md#anchor} that a source file, script or manifest of the project cites. The index's paths:
 * {@link DocsIndexTest}.
 */
class DocsLinksTest {
    private static final Path ROOT = ProjectFiles.root();
    private static final Pattern FENCE = Pattern.compile("(?ms)^\\s*```.*?^\\s*```");
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`\\n]*`");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6}\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a (?:id|name)=\"([^\"]+)\"");
    private static final Pattern CITED = Pattern.compile("(?<![\\w.\"-])docs/([a-z0-9_/-]+\\.md)(?:#([a-z0-9_-]+))?");
    private static final Set<String> NOT_SOURCES = Set.of("target", "node_modules", ".git", ".mvn", ".idea");

    @Test
    void everyLinkLeadsToAPageAndAHeadingThatExist() {
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            Matcher link = LINK.matcher(prose(page));
            while (link.find()) {
                String target = link.group(1);
                if (target.matches("^[a-z]+:.*")) continue; // http:, https:, mailto:
                String path = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : null;
                Path file = path.isEmpty() ? page : page.getParent().resolve(path).normalize();
                if (!Files.exists(file)) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
                } else if (anchor != null && file.toString().endsWith(".md") && !anchors(file).contains(anchor)) {
                    broken.add(ROOT.relativize(page) + ": " + target + " (no such heading in " + ROOT.relativize(file) + ")");
                }
            }
        }
        assertThat(broken).as("links that lead nowhere").isEmpty();
    }

    /**
     * What the code, scripts, manifests and pages cite as {@code docs/PAGE.md} or {@code docs/PAGE.md#anchor} (a
     * comment, an error message, an alert's description) names a page and a heading that exist, so that moving a
     * section to another page cannot leave a reader of a message at a heading that is gone.
     */
    @Test
    void everyPageTheSourcesCiteExists() {
        List<String> broken = new ArrayList<>();
        for (Path file : sources()) {
            String text;
            try {
                text = Files.readString(file);
            } catch (IOException e) {
                continue; // not UTF-8 text: no citation to check
            }
            Matcher cited = CITED.matcher(text);
            while (cited.find()) {
                Path page = ROOT.resolve("docs").resolve(cited.group(1)).normalize();
                String anchor = cited.group(2);
                String where = ROOT.relativize(file) + ":" + line(text, cited.start()) + ": " + cited.group();
                if (!Files.isRegularFile(page)) broken.add(where + " (no such page)");
                else if (anchor != null && !anchors(page).contains(anchor)) {
                    broken.add(where + " (no such heading in " + ROOT.relativize(page) + ")");
                }
            }
        }
        assertThat(broken).as("pages and headings cited that do not exist: cite the page the section is on now").isEmpty();
    }

    /**
     * GitHub's anchors: each heading lower-cased, without punctuation, spaces as hyphens (a repeat gets -1,
     * -2), and each {@code <a id="...">}.
     */
    static Set<String> anchors(Path page) {
        Set<String> anchors = new TreeSet<>();
        Map<String, Integer> seen = new HashMap<>();
        String text = FENCE.matcher(read(page)).replaceAll("");
        HTML_ANCHOR.matcher(text).results().forEach(a -> anchors.add(a.group(1)));
        Matcher heading = HEADING.matcher(text);
        while (heading.find()) {
            String slug = heading.group(1).replaceAll("\\[([^]]*)]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N}\\- _]", "").replace(' ', '-');
            int repeat = seen.merge(slug, 1, Integer::sum) - 1;
            anchors.add(repeat == 0 ? slug : slug + "-" + repeat);
        }
        return anchors;
    }

    /** The page without its code: a link in a code block or in `code` is an example, not a link. */
    static String prose(Path page) {
        return INLINE_CODE.matcher(FENCE.matcher(read(page)).replaceAll("")).replaceAll("");
    }

    static List<Path> pages() {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(file -> file.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    /** Every file of the project but the build's output and git's and Maven's own. */
    private static List<Path> sources() {
        try (Stream<Path> files = Files.walk(ROOT)) {
            return files.filter(Files::isRegularFile).filter(file -> {
                for (Path part : ROOT.relativize(file)) {
                    if (NOT_SOURCES.contains(part.toString())) return false;
                }
                return true;
            }).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int line(String text, int offset) {
        return (int) text.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
