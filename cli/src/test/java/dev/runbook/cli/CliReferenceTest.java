package dev.runbook.cli;

import dev.runbook.cli.command.RunbookCommand;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/cli.md against the {@code runbook} command as picocli builds it ({@link Runbook#commandLine}): every
 * command has its section, headed {@code ## `runbook NAME ...`}, and every option of a command is in the
 * options table of its section ({@code | option | meaning |}); an option or a command the page names that the
 * code no longer has fails too. The options every command inherits ({@code --help}, {@code --version}) are
 * said once, at the top of the page.
 */
class CliReferenceTest {
    private static final Path PAGE = Path.of("../docs/cli.md");
    private static final Pattern SECTION = Pattern.compile("(?m)^## `runbook ([a-z-]+)([^`]*)`.*$");
    private static final Pattern NEXT_SECTION = Pattern.compile("(?m)^## ");
    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])--?[a-zA-Z][\\w-]*");

    private final Map<String, CommandSpec> commands = commands();
    private final Map<String, Section> sections = sections();

    @Test
    void everyCommandHasItsSectionAndEverySectionACommand() {
        List<String> wrong = new ArrayList<>();
        commands.keySet().stream().filter(name -> !sections.containsKey(name)).forEach(name -> wrong.add(
                "runbook " + name + " exists in the code but docs/cli.md has no section `## `runbook " + name + " ...``: add one"));
        sections.keySet().stream().filter(name -> !commands.containsKey(name)).forEach(name -> wrong.add(
                "docs/cli.md documents `runbook " + name + "`, which the code no longer has: remove its section"));
        assertThat(wrong).as("commands of docs/cli.md against picocli's").isEmpty();
    }

    @Test
    void everyOptionIsInItsCommandsTableAndEveryDocumentedOptionExists() {
        List<String> wrong = new ArrayList<>();
        commands.forEach((name, spec) -> {
            Section section = sections.get(name);
            if (section == null) return; // reported by the test above
            Set<String> coded = options(spec);
            coded.stream().filter(option -> !section.table().contains(option)).forEach(option -> wrong.add(
                    "runbook " + name + " " + option + " exists in the code but not in the options table of its section of"
                            + " docs/cli.md: add a row for it"));
            section.table().stream().filter(option -> !coded.contains(option)).forEach(option -> wrong.add(
                    "docs/cli.md's options table of runbook " + name + " lists " + option + ", which the command no longer"
                            + " has: remove the row, or give the command the option again"));
            section.heading().stream().filter(option -> !coded.contains(option)).forEach(option -> wrong.add(
                    "docs/cli.md's heading of runbook " + name + " names " + option + ", which the command does not have"));
        });
        assertThat(wrong).as("options of docs/cli.md against picocli's").isEmpty();
    }

    @Test
    void everyParameterIsInTheHeading() {
        List<String> wrong = new ArrayList<>();
        commands.forEach((name, spec) -> {
            Section section = sections.get(name);
            if (section == null) return;
            spec.positionalParameters().stream().filter(p -> !p.hidden()).map(p -> p.paramLabel().replaceAll("[<>]", ""))
                    .filter(label -> !section.synopsis().contains(label)).forEach(label -> wrong.add(
                            "runbook " + name + " takes " + label + ", which its heading in docs/cli.md does not show"));
        });
        assertThat(wrong).as("parameters of docs/cli.md against picocli's").isEmpty();
    }

    @Test
    void theInheritedOptionsAreSaidOnceAtTheTop() throws IOException {
        String top = Files.readString(PAGE).split("(?m)^## ", 2)[0];
        Set<String> inherited = new TreeSet<>();
        commands.values().forEach(spec -> spec.options().stream().filter(CliReferenceTest::inherited)
                .forEach(option -> inherited.addAll(List.of(option.names()))));
        assertThat(inherited).as("the options every command inherits").isNotEmpty();
        inherited.forEach(option -> assertThat(top).as("docs/cli.md's opening, which says what every command answers")
                .contains("`" + option + "`"));
    }

    /** Every command of {@code runbook}, nested ones as {@code parent child}. */
    private static Map<String, CommandSpec> commands() {
        Map<String, CommandSpec> commands = new TreeMap<>();
        add(commands, "", RunbookCommand.commandLine(Clock.systemUTC()));
        return commands;
    }

    private static void add(Map<String, CommandSpec> commands, String prefix, CommandLine parent) {
        parent.getSubcommands().forEach((name, sub) -> {
            if (!name.equals(sub.getCommandName()) || sub.getCommandSpec().usageMessage().hidden()) return; // an alias
            commands.put(prefix + name, sub.getCommandSpec());
            add(commands, prefix + name + " ", sub);
        });
    }

    private static Set<String> options(CommandSpec spec) {
        Set<String> names = new TreeSet<>();
        spec.options().stream().filter(option -> !inherited(option) && !option.hidden()).forEach(option -> names.addAll(List.of(option.names())));
        return names;
    }

    private static boolean inherited(OptionSpec option) {
        return option.usageHelp() || option.versionHelp();
    }

    record Section(String synopsis, Set<String> heading, Set<String> table) {}

    /** docs/cli.md's sections of commands: the heading's options, and those of the first column of its options tables. */
    private static Map<String, Section> sections() {
        String text;
        try {
            text = Files.readString(PAGE);
        } catch (IOException e) {
            throw new AssertionError("docs/cli.md cannot be read from " + PAGE.toAbsolutePath(), e);
        }
        Map<String, Section> sections = new LinkedHashMap<>();
        Matcher heading = SECTION.matcher(text);
        while (heading.find()) {
            Matcher next = NEXT_SECTION.matcher(text);
            int end = next.find(heading.end()) ? next.start() : text.length();
            String synopsis = heading.group(2);
            sections.put(heading.group(1), new Section(synopsis, found(synopsis), table(text.substring(heading.end(), end))));
        }
        return sections;
    }

    /** The options in the first column of the section's tables headed {@code | option | ...}. */
    private static Set<String> table(String section) {
        Set<String> options = new TreeSet<>();
        boolean inTable = false;
        for (String line : section.split("\n")) {
            if (!line.startsWith("|")) {
                inTable = false;
            } else if (line.matches("\\|\\s*option\\s*\\|.*")) {
                inTable = true;
            } else if (inTable && !line.matches("\\|[\\s|:-]+")) {
                options.addAll(found(line.split("\\|")[1]));
            }
        }
        return options;
    }

    private static Set<String> found(String text) {
        Set<String> options = new TreeSet<>();
        OPTION.matcher(text).results().forEach(option -> options.add(option.group()));
        return options;
    }
}
