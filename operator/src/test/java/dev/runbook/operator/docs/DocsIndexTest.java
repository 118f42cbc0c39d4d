package dev.runbook.operator.docs;

import dev.runbook.operator.testkit.ProjectFiles;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/index.md's three paths, walked: each reader's path is there (editing rules, installing and upgrading,
 * contributing), each lists pages, every page it lists exists, and every page under docs/ is on a path, so that
 * no page is an orphan that only a search finds. README.md leads to the index.
 */
class DocsIndexTest {
    static final List<String> PATHS = List.of("Editing rules", "Installing and upgrading", "Contributing");
    private static final Path ROOT = ProjectFiles.root();
    private static final Path INDEX = ROOT.resolve("docs/index.md");
    private static final Pattern PATH_HEADING = Pattern.compile("(?m)^## (.+)$");
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s#]*)(?:#[^)\\s]*)?\\)");

    @Test
    void theIndexHasTheThreePathsInOrder() {
        assertThat(paths().keySet()).as("the paths of docs/index.md (its ## headings)").containsExactlyElementsOf(PATHS);
    }

    @Test
    void everyPageAPathListsExists() {
        List<String> missing = new ArrayList<>();
        paths().forEach((path, pages) -> {
            assertThat(pages).as("pages on the path '" + path + "' of docs/index.md").isNotEmpty();
            pages.stream().filter(page -> !Files.isRegularFile(page))
                    .forEach(page -> missing.add(path + ": " + ROOT.relativize(page)));
        });
        assertThat(missing).as("pages the paths of docs/index.md list that do not exist").isEmpty();
    }

    @Test
    void everyPageIsOnAPathOfTheIndex() {
        Set<Path> listed = new TreeSet<>();
        paths().values().forEach(listed::addAll);
        List<Path> unlisted = DocsLinksTest.pages().stream().filter(page -> page.startsWith(ROOT.resolve("docs")))
                .filter(page -> !page.equals(INDEX) && !listed.contains(page)).map(ROOT::relativize).toList();
        assertThat(unlisted).as("docs pages no path of docs/index.md leads to: add each to the path of its reader").isEmpty();
        assertThat(DocsLinksTest.prose(ROOT.resolve("README.md"))).as("README.md leads to the index").contains("(docs/index.md)");
    }

    /** Each {@code ##} section of the index, with the pages its links name (the anchors dropped). */
    private static Map<String, List<Path>> paths() {
        String text = DocsLinksTest.prose(INDEX);
        Map<String, List<Path>> paths = new LinkedHashMap<>();
        Matcher heading = PATH_HEADING.matcher(text);
        List<int[]> bounds = new ArrayList<>();
        List<String> names = new ArrayList<>();
        while (heading.find()) {
            names.add(heading.group(1).trim());
            bounds.add(new int[] {heading.end(), text.length()});
            if (bounds.size() > 1) bounds.get(bounds.size() - 2)[1] = heading.start();
        }
        for (int i = 0; i < names.size(); i++) {
            List<Path> pages = new ArrayList<>();
            Matcher link = LINK.matcher(text.substring(bounds.get(i)[0], bounds.get(i)[1]));
            while (link.find()) {
                String target = link.group(1);
                if (!target.isEmpty() && !target.matches("^[a-z]+:.*")) pages.add(INDEX.getParent().resolve(target).normalize());
            }
            paths.put(names.get(i), pages);
        }
        return paths;
    }
}
