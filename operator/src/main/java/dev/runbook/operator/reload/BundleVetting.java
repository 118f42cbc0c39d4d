package dev.runbook.operator.reload;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.DecidingBundle;
import dev.runbook.engine.policy.Isolation;
import dev.runbook.operator.controller.ReconcileThreads;
import dev.runbook.operator.isolation.IsolatedBundle;
import dev.runbook.operator.isolation.WorkerLauncher;
import dev.runbook.engine.containment.ContainedRun;
import dev.runbook.engine.files.BundleFiles;
import dev.runbook.engine.containment.RuleContainmentException;
import dev.runbook.testkit.invariant.Invariants;
import dev.runbook.engine.policy.Policy;
import dev.runbook.engine.policy.PolicyRefusals;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import dev.runbook.testkit.scenario.Scenario;
import dev.runbook.testkit.scenario.ScenarioResult;
import dev.runbook.testkit.scenario.ScenarioRunner;
import dev.runbook.testkit.scenario.ScenarioSuite;
import dev.runbook.operator.controller.BundleRefusedException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The gate a new bundle passes before it may run: it compiles, and every one of its scenarios passes
 * on the simulated cluster. The same checks as {@code runbook lint} and {@code runbook test}, run by the
 * operator on what it was sent, off the reconcile path.
 */
public final class BundleVetting implements ContentVetting {

    /** A bundle that passed: compiled (in this process or in a worker's), with how many scenarios it passed. */
    public record Vetted(DecidingBundle bundle, int scenarios) {}

    /** How many lines of a failing scenario's explanation a refusal shows. */
    static final int SHOWN_LINES = 4;
    /** How many failing scenarios a refusal's first line names. */
    static final int SHOWN_NAMES = 3;

    /**
     * Vets the bundle a ConfigMap's data carries ({@link BundleConfigMaps} keys), as its files are held in
     * memory: nothing is written to disk. Where the policy isolates ConfigMap bundles (the default), it is
     * compiled and its scenarios run in a worker process ({@link IsolatedBundle}), which then decides its
     * cycles; else in this process.
     *
     * @param source names the ConfigMap in messages ({@code configmap/NAMESPACE/NAME})
     */
    @Override
    public Vetted vetData(String source, Map<String, String> data) {
        Map<String, String> files;
        try {
            files = BundleConfigMaps.bundleFiles(source, data);
        } catch (InvalidInputException e) {
            throw new BundleRefusedException(source + ": refused: not a bundle ConfigMap",
                    e.getProblems().stream().map(Problem::toString).toList());
        }
        return policy.isolation().configMaps() == Isolation.Trust.ISOLATED
                ? vetIsolated(source, files) : vet(source, BundleFiles.of(files));
    }

    private final Policy policy;

    /** The policy this vetting runs scenarios under: part of what a verdict depends on ({@link SharedVerdicts}). */
    public Policy policy() {
        return policy;
    }

    public BundleVetting() {
        this(Policy.DEFAULT);
    }

    /** @param policy the operator's: a bundle's scenarios pass only if its plans pass the policy it will run under */
    public BundleVetting(Policy policy) {
        this.policy = policy;
    }

    /** The bundle of these files, compiled and vetted in a worker that then decides its cycles. */
    private Vetted vetIsolated(String origin, Map<String, String> files) {
        IsolatedBundle bundle;
        try {
            bundle = IsolatedBundle.load(BundleLoader.of(origin, BundleFiles.of(files)), files, policy,
                    WorkerLauncher.of(policy.isolation(), ReconcileThreads.byDefault()), true);
        } catch (InvalidInputException e) {
            throw new BundleRefusedException(origin + ": refused: the bundle does not compile",
                    e.getProblems().stream().map(Problem::toString).toList());
        }
        // The worker checked this too; the operator does not take its word for it.
        String refusal = PolicyRefusals.of(bundle.spec(), policy);
        if (refusal != null) {
            bundle.close();
            throw new BundleRefusedException(origin + ": refused: " + refusal);
        }
        return new Vetted(bundle, bundle.scenarios());
    }

    /** Compiles and vets the bundle in {@code directory} in this process, as {@link #vet(String, BundleFiles)}. */
    public Vetted vet(String origin, Path directory) {
        return vet(origin, BundleFiles.on(directory));
    }

    /**
     * Compiles and vets the bundle of these files in this process.
     *
     * @param origin names the bundle in messages and becomes its source's origin (e.g. {@code configmap ns/name})
     * @throws BundleRefusedException with every problem as {@code file:line:col: message}, or every failing scenario
     */
    public Vetted vet(String origin, BundleFiles files) {
        CompiledBundle bundle;
        try {
            bundle = BundleCompiler.compile(BundleLoader.of(origin, files));
        } catch (InvalidInputException e) {
            throw new BundleRefusedException(origin + ": refused: the bundle does not compile",
                    e.getProblems().stream().map(Problem::toString).toList());
        }
        return new Vetted(bundle, checkCompiled(origin, files, bundle));
    }

    /**
     * Everything vetting checks once the bundle compiled: what the policy says of the bundle itself (it
     * grants a namespace, it lets it read the cluster-scoped kinds it declares), then every scenario.
     *
     * @param files the bundle's files: its scenarios, their state files and its invariants are read from them
     * @return how many scenarios passed (all of them)
     * @throws BundleRefusedException naming what the policy refuses, or the failing scenarios
     */
    public int checkCompiled(String origin, BundleFiles files, CompiledBundle bundle) {
        String refusal = PolicyRefusals.of(bundle.spec(), policy);
        if (refusal != null) throw new BundleRefusedException(origin + ": refused: " + refusal);
        return checkScenarios(origin, files, bundle);
    }

    /**
     * Runs every scenario of the bundle of these files on its compiled {@code bundle}.
     *
     * @return how many passed (all of them)
     * @throws BundleRefusedException when there are none, one is not valid, or any fails: naming the
     *                                failing ones and the first difference first
     */
    public int checkScenarios(String origin, BundleFiles files, CompiledBundle bundle) {
        if (files.under(ScenarioSuite.DIRECTORY, "").isEmpty()) {
            throw new BundleRefusedException(origin + ": refused: the bundle has no scenarios (tests/*.yaml): a bundle "
                    + "is reloaded only when its scenarios pass (see docs/testing.md)");
        }
        List<Scenario> scenarios;
        try {
            scenarios = ScenarioSuite.read(files);
        } catch (InvalidInputException e) {
            throw new BundleRefusedException(origin + ": refused: its scenario files are not valid",
                    e.getProblems().stream().map(Problem::toString).toList());
        }
        ScenarioRunner runner;
        try {
            runner = new ScenarioRunner(java.time.Clock.systemUTC(), Invariants.of(files), policy);
        } catch (InvalidInputException e) {
            throw new BundleRefusedException(origin + ": refused: its invariants do not compile",
                    e.getProblems().stream().map(Problem::toString).toList());
        }
        List<String> failures = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        List<String> differences = new ArrayList<>();
        try {
            // All scenarios together end by the vetting deadline: a runaway rule cannot hold the reload thread.
            ContainedRun.vetting(policy.containment(), () -> {
                for (Scenario scenario : scenarios) {
                    ScenarioResult result = runner.run(bundle, scenario);
                    if (!result.passed()) {
                        // The first lines of the first failure say what differed; `runbook test` shows the rest.
                        List<String> lines = result.failures().get(0).lines().limit(SHOWN_LINES).toList();
                        failures.add("FAIL " + scenario.displayName() + ": " + String.join("\n    ", lines));
                        failed.add(scenario.displayName());
                        differences.add(String.join(" ", lines.stream().map(String::strip).toList()));
                    }
                }
                return failures;
            });
        } catch (RuleContainmentException e) {
            throw new BundleRefusedException(origin + ": refused: " + e.getMessage());
        }
        String firstDifference = differences.isEmpty() ? null : differences.get(0);
        if (!failures.isEmpty()) {
            throw new BundleRefusedException(origin + ": refused: " + failures.size() + " of " + scenarios.size()
                    + " scenarios failed", headline(failed, firstDifference), failures);
        }
        return scenarios.size();
    }

    /** "scenario failed: NAME, NAME (+N more): FIRST DIFFERENCE": which, and how the first one differed. */
    static String headline(List<String> failed, String firstDifference) {
        int shown = Math.min(failed.size(), SHOWN_NAMES);
        String names = String.join(", ", failed.subList(0, shown)) + (failed.size() > shown ? " (+" + (failed.size() - shown) + " more)" : "");
        return (failed.size() == 1 ? "scenario failed: " : "scenarios failed: ") + names + ": " + firstDifference;
    }
}
