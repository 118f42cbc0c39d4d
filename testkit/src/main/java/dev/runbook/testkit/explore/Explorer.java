package dev.runbook.testkit.explore;

import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.testkit.invariant.Invariants;
import dev.runbook.testkit.scenario.Scenario;
import dev.runbook.testkit.scenario.ScenarioParser;
import dev.runbook.testkit.scenario.ScenarioResult;
import dev.runbook.testkit.scenario.ScenarioRunner;
import dev.runbook.testkit.explore.fault.SpecEdit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * {@code runbook explore}: random multi-step drills on the simulated cluster. Each run starts from
 * the bundle's {@code explore.yaml} state, draws faults from the {@link FaultCatalogue} for a number
 * of steps, checks the invariants after every cycle, and then checks that the cluster converges once
 * faults stop. The first run to show each distinct failure is shrunk ({@link Shrinker}) and written as
 * a scenario file, which is then replayed by the scenario kit to confirm it fails.
 *
 * <p>Deterministic: every choice comes from one {@link SplittableRandom} seeded by the caller (each
 * run gets its own split of it), and the simulated cluster's time is set, never read from a clock.
 */
public final class Explorer {
    /** The default budget: it finds a deleted fencing rule or an acting rule marked @whilePaused in postgres-cluster (PostgresExploreTest). */
    public static final int DEFAULT_RUNS = 100;
    public static final int DEFAULT_STEPS = 20;
    public static final long DEFAULT_SEED = 1;

    /** What to explore: how many runs of how many steps, from which seed; where shrunk scenarios go. */
    public record Options(int runs, int steps, long seed, Path out) {}

    /** A failing run: the failure, the run's length and the shrunk scenario's. */
    public record Found(int run, Finding finding, int steps, int shrunkSteps, Path scenario, boolean replaysFailing) {}

    public record Report(int runs, int steps, int violations, List<Found> found) {}

    private final Path bundleDirectory;
    private final CompiledBundle bundle;
    private final Invariants invariants;
    private final ExploreSpec spec;
    private final List<Fault> catalogue;
    private final RandomSource.Edits edits;

    public Explorer(Path bundleDirectory, CompiledBundle bundle, Invariants invariants, ExploreSpec spec) {
        this.bundleDirectory = bundleDirectory;
        this.bundle = bundle;
        this.invariants = invariants;
        this.spec = spec;
        SpecEdit userEdits = FaultCatalogue.userEdits(bundleDirectory, bundle.spec().primary().kind(), spec);
        this.catalogue = FaultCatalogue.of(spec, userEdits);
        this.edits = userEdits == null || userEdits.fields().isEmpty() ? RandomSource.Edits.NONE
                : new RandomSource.Edits(userEdits, spec.converge().status());
    }

    public List<Fault> catalogue() { return catalogue; }

    public Report explore(Options options, Consumer<String> out) {
        Trial trial = new Trial(bundle, invariants, spec);
        SplittableRandom seeds = new SplittableRandom(options.seed());
        List<Found> found = new ArrayList<>();
        List<Finding> shrunk = new ArrayList<>();
        int violations = 0;
        for (int run = 1; run <= options.runs(); run++) {
            SplittableRandom random = seeds.split();
            Trial.Result result = trial.run(options.steps(), new RandomSource(catalogue, spec.tick(), random, edits));
            if (result.finding() == null) continue;
            violations++;
            Finding finding = result.finding();
            out.accept("run " + run + ": step " + finding.step() + " of " + result.steps().size() + ": " + finding);
            if (shrunk.stream().anyMatch(finding::sameFailure)) {
                out.accept("    (the same failure as above: not shrunk again)");
                continue;
            }
            shrunk.add(finding);
            found.add(shrinkAndWrite(trial, options, run, result));
            Found last = found.get(found.size() - 1);
            out.accept("    shrunk to " + last.shrunkSteps() + " steps: " + last.scenario().toString().replace('\\', '/'));
            out.accept(last.replaysFailing() ? "    runbook test replays it and fails the same way"
                    : "    WARNING: replayed by runbook test, the written scenario does not fail; keep the run's seed instead");
        }
        return new Report(options.runs(), options.steps(), violations, found);
    }

    private Found shrinkAndWrite(Trial trial, Options options, int run, Trial.Result failing) {
        Finding target = failing.finding();
        List<StepPlan> plans = failing.plans();
        Shrinker shrinker = new Shrinker(candidate -> trial.run(candidate.size(), new ReplaySource(candidate)), target);
        Trial.Result minimal = shrinker.shrink(plans);
        if (!minimal.replayable() || !target.sameFailure(minimal.finding())) minimal = failing; // cannot happen: ddmin keeps a failing run
        String slug = target.what().toLowerCase().replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        Path file = options.out().resolve("explored-" + slug + "-seed" + options.seed() + "-run" + run + ".yaml");
        String what = switch (target.kind()) {
            case INVARIANT -> "invariant '" + target.what() + "' violated";
            case RULE_FAILED -> "a rule failed";
            case PLAN_REFUSED -> "the plan was refused";
            case NOT_CONVERGED -> "did not converge once faults stopped";
        };
        String name = "explored: " + what + " (seed " + options.seed() + ", run " + run + ")";
        List<String> comments = List.of(
                "Found by runbook explore with --seed " + options.seed() + " (run " + run + ", " + failing.steps().size()
                        + " steps), shrunk to " + minimal.steps().size() + " steps.",
                "It fails with: " + oneLine(minimal.finding().toString()),
                "Replay: runbook test " + bundleDirectory.toString().replace('\\', '/') + " " + file.toString().replace('\\', '/'));
        try {
            Files.createDirectories(options.out());
            Files.writeString(file, ScenarioWriter.write(spec, options.out(), name, comments, minimal.steps()), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return new Found(run, target, failing.steps().size(), minimal.steps().size(), file, replaysFailing(file));
    }

    /** Whether the scenario kit, reading the written file as runbook test does, sees it fail. */
    private boolean replaysFailing(Path file) {
        List<Scenario> scenarios = new ScenarioParser(bundleDirectory.toAbsolutePath().normalize()).parse(file);
        ScenarioRunner runner = new ScenarioRunner(invariants);
        return scenarios.stream().map(s -> runner.run(bundle, s)).noneMatch(ScenarioResult::passed);
    }

    private static String oneLine(String text) {
        return text.replace('\n', ' ');
    }
}
