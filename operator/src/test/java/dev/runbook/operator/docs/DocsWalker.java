package dev.runbook.operator.docs;

import org.awaitility.core.ConditionTimeoutException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;

/**
 * Takes a {@link Journey} step by step in a {@link ReaderShell}, as its reader would, and stops at the
 * first step that does not do what its page says, naming the page and line it is written on, what it
 * printed against what the page shows, and the last lines of the jobs it left running (an operator
 * started with {@code &}).
 */
final class DocsWalker {
    /** How long one command may run: a first build of the jar takes minutes on a loaded machine. */
    static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(10);
    /** How often a command whose output is not yet the page's is typed again. */
    static final Duration RETRY_EVERY = Duration.ofSeconds(2);
    private static final int TAIL = 40;

    private final ReaderShell shell;
    private final Path workDir;
    private final List<Typed> background = new ArrayList<>();

    private record Typed(Journey.Command command, ReaderShell.Result result) {}

    DocsWalker(ReaderShell shell, Path workDir) {
        this.shell = shell;
        this.workDir = workDir;
    }

    /** Takes every step of {@code journey}; an {@link AssertionError} names the first that failed. */
    void walk(Journey journey) throws IOException, InterruptedException {
        for (Journey.Step step : journey.steps()) {
            if (step instanceof Journey.Edit edit) {
                edit(edit);
            } else if (step instanceof Journey.Command command) {
                type(command);
            }
        }
    }

    private void edit(Journey.Edit step) throws IOException {
        Path file = workDir.resolve(step.path());
        if (!step.append()) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, step.content(), StandardCharsets.UTF_8);
        } else if (Files.isRegularFile(file)) {
            Files.writeString(file, step.content(), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        } else {
            throw new AssertionError(step.where() + ": append=" + step.path() + ", but the reader has no such file");
        }
    }

    private void type(Journey.Command command) throws IOException, InterruptedException {
        if (command.patience().isZero() || command.shown().isEmpty()) {
            Typed typed = new Typed(command, shell.run(command.text(), COMMAND_TIMEOUT));
            if (command.text().endsWith("&")) background.add(typed);
            if (!asShown(typed)) throw new AssertionError(failure(typed, 1, Duration.ZERO));
            return;
        }
        AtomicReference<Typed> last = new AtomicReference<>();
        int[] tries = {0};
        long started = System.nanoTime();
        try {
            await().atMost(command.patience()).pollDelay(Duration.ZERO).pollInterval(RETRY_EVERY).until(() -> {
                tries[0]++;
                last.set(new Typed(command, shell.run(command.text(), COMMAND_TIMEOUT)));
                return asShown(last.get());
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(failure(last.get(), tries[0], Duration.ofNanos(System.nanoTime() - started)), e);
        }
    }

    private static boolean asShown(Typed typed) {
        return typed.result().exit() == typed.command().exit()
                && (typed.command().shown().isEmpty() || ShownOutput.matches(typed.command().shown(), ShownOutput.lines(typed.result().output())));
    }

    private String failure(Typed typed, int tries, Duration took) {
        if (typed == null) return "no attempt finished";
        StringBuilder message = new StringBuilder();
        Journey.Command command = typed.command();
        message.append(command.where()).append(": ").append(command.text()).append('\n')
                .append("exited ").append(typed.result().exit()).append(" (the page expects ").append(command.exit()).append(")")
                .append(tries > 1 ? ", the last of " + tries + " tries in " + took.toSeconds() + " s" : "")
                .append(", and printed:\n").append(indent(typed.result().output()));
        if (!command.shown().isEmpty()) message.append("but the page shows:\n").append(indent(String.join("\n", command.shown())));
        if (!shell.stray().isEmpty()) message.append("the shell said:\n").append(indent(String.join("\n", shell.stray())));
        for (Typed job : background) {
            message.append("still in the background from ").append(job.command().where()).append(": ")
                    .append(job.command().text()).append(", its last lines (").append(job.result().file()).append("):\n")
                    .append(indent(tail(job.result().file())));
        }
        return message.toString();
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL), lines.size()));
        } catch (IOException e) {
            return "(cannot be read: " + e.getMessage() + ")";
        }
    }

    private static String indent(String text) {
        return text.lines().map(l -> "    " + l).collect(Collectors.joining("\n", "", "\n"));
    }
}
