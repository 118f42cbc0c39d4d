package dev.runbook.operator.docs;

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
 * exists and, with {@code #anchor}, to a heading of that page (the anchors GitHub makes); and every page
 * of docs/ is on one of docs/index.md's three paths.
 */
class DocsLinksTest {
    private static final Path ROOT = ClusterExamples.root();
    private static final Pattern FENCE = Pattern.compile("(?ms)^\\s*```.*?^\\s*```");
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`\\n]*`");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("(?m)^#{1,6}\\s+(.+?)\\s*#*\\s*$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a (?:id|name)=\"([^\"]+)\"");

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

    @Test
    void everyPageIsOnAPathOfTheIndex() {
        Path index = ROOT.resolve("docs/index.md");
        Set<Path> linked = new TreeSet<>();
        Matcher link = LINK.matcher(prose(index));
        while (link.find()) {
            String target = link.group(1).replaceAll("#.*", "");
            if (!target.isEmpty() && !target.matches("^[a-z]+:.*")) linked.add(index.getParent().resolve(target).normalize());
        }
        List<Path> unlisted = pages().stream().filter(page -> page.startsWith(ROOT.resolve("docs")))
                .filter(page -> !page.equals(index) && !linked.contains(page)).map(ROOT::relativize).toList();
        assertThat(unlisted).as("docs pages no path of docs/index.md leads to").isEmpty();
        assertThat(prose(ROOT.resolve("README.md"))).as("README.md leads to the index").contains("(docs/index.md)");
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
    private static String prose(Path page) {
        return INLINE_CODE.matcher(FENCE.matcher(read(page)).replaceAll("")).replaceAll("");
    }

    private static List<Path> pages() {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.walk(ROOT.resolve("docs"))) {
            docs.filter(file -> file.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
