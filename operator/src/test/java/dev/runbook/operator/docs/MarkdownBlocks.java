package dev.runbook.operator.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The fenced code blocks of the project's Markdown pages, with their info strings and places. */
public final class MarkdownBlocks {
    public record Block(Path page, int line, String info, String content) {
        public String where() { return page + ":" + line; }

        /** The value of {@code key=value} in the info string, or null. */
        public String attribute(String key) {
            for (String word : info.split("\\s+")) {
                if (word.startsWith(key + "=")) return word.substring(key.length() + 1);
            }
            return null;
        }

        public String language() {
            String[] words = info.trim().split("\\s+");
            return words.length == 0 ? "" : words[0];
        }
    }

    private MarkdownBlocks() {}

    public static List<Path> pages(Path root) throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    public static List<Block> blocks(Path root) throws IOException {
        List<Block> blocks = new ArrayList<>();
        for (Path page : pages(root)) {
            List<String> lines = Files.readAllLines(page);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (!line.startsWith("```") || line.length() == 3) continue;
                String info = line.substring(3).trim();
                StringBuilder content = new StringBuilder();
                int start = i + 1;
                for (i = i + 1; i < lines.size() && !lines.get(i).startsWith("```"); i++) {
                    content.append(lines.get(i)).append('\n');
                }
                blocks.add(new Block(root.relativize(page), start, info, content.toString()));
            }
        }
        return blocks;
    }
}
