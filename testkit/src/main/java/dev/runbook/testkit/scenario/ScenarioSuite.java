package dev.runbook.testkit.scenario;

import dev.runbook.engine.bundle.CrdSchemas;
import dev.runbook.engine.files.BundleFiles;
import dev.runbook.engine.files.EditorFiles;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The scenarios of a bundle ({@code tests/*.yaml}, or chosen files), and the rules none of them fired. */
public final class ScenarioSuite {
    public static final String DIRECTORY = "tests";

    private ScenarioSuite() {}

    /** Every scenario file of the bundle, in name order. */
    public static List<Path> files(Path bundle) {
        return EditorFiles.files(bundle.resolve(DIRECTORY), ".yaml");
    }

    /**
     * Reads the scenarios of the given files (all of the bundle's when none is given).
     *
     * @throws InvalidInputException with every problem of every file
     */
    public static List<Scenario> read(Path bundle, List<Path> chosen) {
        List<Path> files = chosen.isEmpty() ? files(bundle) : locate(bundle, chosen);
        Path absolute = bundle.toAbsolutePath().normalize();
        return read(new ScenarioParser(absolute), files.stream()
                .map(file -> absolute.relativize(file.toAbsolutePath().normalize()).toString().replace('\\', '/')).toList());
    }

    /**
     * Reads every scenario of a bundle held in memory ({@code tests/*.yaml} among {@code files}), its
     * state files read from the same files, its values checked against its CRDs ({@code crds/*.yaml}).
     *
     * @throws InvalidInputException with every problem of every file
     */
    public static List<Scenario> read(BundleFiles files) {
        return read(new ScenarioParser(files, CrdSchemas.in(files)), files.under(DIRECTORY, ".yaml"));
    }

    private static List<Scenario> read(ScenarioParser parser, List<String> files) {
        if (files.isEmpty()) {
            throw new InvalidInputException(Problem.inFile(DIRECTORY + "/",
                    "no scenario files: write tests/*.yaml (see docs/testing.md)"));
        }
        List<Scenario> scenarios = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        for (String file : files) {
            try {
                scenarios.addAll(parser.parse(file));
            } catch (InvalidInputException e) {
                problems.addAll(e.getProblems());
            }
        }
        if (!problems.isEmpty()) throw new InvalidInputException(problems);
        return scenarios;
    }

    /**
     * The chosen scenario files, each as given (relative to the current directory) when it is there, else
     * relative to the bundle: {@code runbook test runbooks/pg tests/failover.yaml} works from the project's
     * root as well as from inside the bundle.
     *
     * @throws InvalidInputException naming each file found in neither place
     */
    public static List<Path> locate(Path bundle, List<Path> chosen) {
        List<Path> found = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        for (Path file : chosen) {
            if (Files.isRegularFile(file)) {
                found.add(file);
            } else if (!file.isAbsolute() && Files.isRegularFile(bundle.resolve(file))) {
                found.add(bundle.resolve(file));
            } else {
                problems.add(Problem.inFile(file.toString(), "no such scenario file, here or in the bundle ("
                        + bundle.resolve(file) + "): give its path from the current directory or from the bundle"));
            }
        }
        if (!problems.isEmpty()) throw new InvalidInputException(problems);
        return found;
    }

    /** The bundle's rules that fired in none of the results, in name order. */
    public static List<String> unfiredRules(CompiledBundle bundle, List<ScenarioResult> results) {
        Set<String> fired = new LinkedHashSet<>();
        results.forEach(r -> fired.addAll(r.firedRules()));
        return bundle.ruleNames().stream().filter(rule -> !fired.contains(rule)).toList();
    }
}
