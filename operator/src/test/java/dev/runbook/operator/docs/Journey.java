package dev.runbook.operator.docs;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A path a reader takes through the docs, as the pages themselves write it: the fenced blocks of README.md
 * and docs/ whose info string says {@code walk=NAME}, in page order (README.md, then docs/ by path), each
 * turned into the steps a reader takes. {@link DocsWalker} takes them in a shell of the reader's.
 *
 * <ul>
 *   <li>{@code ```sh walk=NAME}: every command of the block is typed as it stands (a line ending in
 *       {@code \} goes on on the next one; comments and blank lines are skipped) and must exit 0, or the
 *       block's {@code exit=N}.</li>
 *   <li>{@code ```console walk=NAME} (or {@code terminal}): each {@code $ COMMAND} line is typed once, and
 *       the lines under it, when there are any, are what it must print ({@link ShownOutput}), with the
 *       block's {@code exit=N} (default 0). In a block that says {@code wait=SECONDS}, a command that does
 *       not print that yet is typed again, a few seconds apart, for up to that long: a cluster converges
 *       in its own time, and a reader looks again. Only there: typing a command twice may do what the page
 *       does not ({@code runbook new} refuses to write over its bundle).</li>
 *   <li>{@code ```yaml walk=NAME append=PATH} (any language): the block is added at the end of the file
 *       PATH, which must be there, as the reader does in an editor when the page says "add these lines";
 *       {@code write=PATH}: the block is the whole of the file PATH, new or replaced.</li>
 * </ul>
 *
 * @param name  the journey's name, as the pages write it after {@code walk=}
 * @param steps in the order a reader takes them
 */
record Journey(String name, List<Step> steps) {
    private static final Set<String> SCRIPTS = Set.of("sh", "bash");
    private static final Set<String> SESSIONS = Set.of("console", "terminal");

    /** One thing the reader does; {@code where} is the page and line it is written on. */
    sealed interface Step {
        String where();
    }

    /**
     * A command typed into the shell.
     *
     * @param shown what it must print, or empty when the page shows nothing (then only its exit code counts)
     * @param patience how long it may be typed again until it prints {@code shown} (zero: it is typed once)
     */
    record Command(String where, String text, int exit, List<String> shown, Duration patience) implements Step {}

    /**
     * A file the reader edits, {@code path} being relative to their working directory: the content added at
     * its end ({@code append}), or the whole of it.
     */
    record Edit(String where, String path, String content, boolean append) implements Step {}

    /** The journey {@code name} of the pages under {@code root}; an error names a block the walker cannot take. */
    static Journey read(Path root, String name) throws IOException {
        List<Step> steps = new ArrayList<>();
        for (MarkdownBlocks.Block block : MarkdownBlocks.blocks(root)) {
            if (!name.equals(block.attribute("walk"))) continue;
            if (block.attribute("append") != null) {
                steps.add(new Edit(block.where(), block.attribute("append"), block.content(), true));
            } else if (block.attribute("write") != null) {
                steps.add(new Edit(block.where(), block.attribute("write"), block.content(), false));
            } else if (SCRIPTS.contains(block.language())) {
                steps.addAll(script(block));
            } else if (SESSIONS.contains(block.language())) {
                steps.addAll(session(block));
            } else {
                throw new IllegalArgumentException(block.where() + ": walk=" + name + " on a ```" + block.language()
                        + " block: the walker types sh, console and terminal blocks, and writes a block with append=PATH or write=PATH to that file");
            }
        }
        if (steps.isEmpty()) throw new IllegalArgumentException("no block of README.md or docs/ says walk=" + name);
        return new Journey(name, List.copyOf(steps));
    }

    private static List<Step> script(MarkdownBlocks.Block block) {
        List<Step> commands = new ArrayList<>();
        List<String> lines = block.content().lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            int first = i;
            StringBuilder text = new StringBuilder(lines.get(i));
            while (lines.get(i).endsWith("\\") && i + 1 < lines.size()) text.append('\n').append(lines.get(++i));
            String command = text.toString().strip();
            if (command.isEmpty() || command.startsWith("#")) continue;
            commands.add(new Command(at(block, first), command, exit(block), List.of(), Duration.ZERO));
        }
        return commands;
    }

    private static List<Step> session(MarkdownBlocks.Block block) {
        List<Step> commands = new ArrayList<>();
        List<String> lines = block.content().lines().toList();
        Duration wait = block.attribute("wait") == null ? Duration.ZERO : Duration.ofSeconds(Long.parseLong(block.attribute("wait")));
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).startsWith("$ ")) {
                throw new IllegalArgumentException(at(block, i) + ": a walked session block starts each command with \"$ \"");
            }
            int first = i;
            StringBuilder text = new StringBuilder(lines.get(i).substring(2));
            while (lines.get(i).endsWith("\\") && i + 1 < lines.size()) text.append('\n').append(lines.get(++i));
            List<String> shown = new ArrayList<>();
            while (i + 1 < lines.size() && !lines.get(i + 1).startsWith("$ ")) shown.add(lines.get(++i));
            List<String> output = ShownOutput.lines(String.join("\n", shown));
            commands.add(new Command(at(block, first), text.toString(), exit(block), output,
                    output.isEmpty() ? Duration.ZERO : wait));
        }
        return commands;
    }

    private static int exit(MarkdownBlocks.Block block) {
        return block.attribute("exit") == null ? 0 : Integer.parseInt(block.attribute("exit"));
    }

    /** The page and line of the block's {@code index}th line (0 being the one after the fence, at {@code block.line()}). */
    private static String at(MarkdownBlocks.Block block, int index) {
        return block.page() + ":" + (block.line() + 1 + index);
    }
}
