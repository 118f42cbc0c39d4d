package dev.runbook.cli.command;

import dev.runbook.operator.command.ExitCodes;
import dev.runbook.operator.command.BundleArgument;
import dev.runbook.operator.command.Failures;
import dev.runbook.operator.command.PolicyOption;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.compile.SpecFieldCheck;
import dev.runbook.testkit.invariant.Invariants;
import dev.runbook.engine.problem.Problem;
import dev.runbook.engine.containment.ContainmentLimits;
import dev.runbook.engine.policy.EffectiveLimits;
import dev.runbook.engine.policy.Policy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code runbook lint BUNDLE}: compile the bundle (and its invariants) and report every problem with its place; warn about
 * rules that read {@code spec.} fields the primary's CRD does not declare ({@link SpecFieldCheck}). With
 * {@code --policy FILE}, also what that policy grants the bundle and the limits its rules run under.
 */
@Command(name = "lint", description = "Compile a bundle and report problems as file:line:col: message.")
final class LintCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "BUNDLE", description = "The bundle directory (it holds bundle.yaml).")
    Path bundle;

    @Mixin
    PolicyOption policy = new PolicyOption();

    @Spec
    CommandSpec spec;

    /** What the policy grants this bundle and the limits its rules run under, as the operator will apply them. */
    private static void printPolicy(java.io.PrintWriter out, CompiledBundle compiled, Policy policy) {
        EffectiveLimits granted = EffectiveLimits.of(compiled.spec(), policy);
        out.printf("policy %s for bundle %s: %s; kinds %s; cluster-scoped %s%n", policy.source(), compiled.name(),
                granted.policy().namespaces(), granted.kinds(), granted.clusterScoped().isEmpty() ? "none" : granted.clusterScoped());
        ContainmentLimits inForce = policy.containment();
        inForce.describe(policy.limits()).forEach(line -> out.println("  " + line));
        var asked = compiled.spec().limits().cycleDeadline();
        if (asked != null) {
            out.printf("  bundle.yaml limits.cycleDeadline: %s (%s)%n", dev.runbook.rules.function.Durations.format(asked),
                    asked.compareTo(inForce.cycleDeadline()) < 0 ? "shorter: its cycles end by it" : "not shorter: the policy's applies");
        }
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        var err = spec.commandLine().getErr();
        return Failures.guard(err, () -> {
            CompiledBundle compiled = BundleArgument.compile(bundle);
            for (Problem warning : compiled.warnings()) err.println("warning: " + warning);
            for (Problem warning : SpecFieldCheck.check(compiled.source().filesUnder("rules/", ".drl"), dev.runbook.engine.bundle.CrdSchemas.read(bundle).files(),
                    compiled.spec().primary().kind())) {
                err.println("warning: " + warning);
            }
            for (Problem warning : dev.runbook.engine.idiom.IdiomLint.check(compiled.source().filesUnder("rules/", ".drl"), compiled.spec())) {
                err.println("warning: " + warning);
            }
            out.printf("bundle %s %s: %s, %s: OK%n", compiled.name(), compiled.spec().version(),
                    count(compiled.ruleNames().size(), "rule"), count(compiled.templates().names().size(), "template"));
            out.printf("content version %s%n", compiled.version());
            Invariants invariants = Invariants.load(bundle);
            if (!invariants.isEmpty()) out.printf("invariants: %s: OK%n", count(invariants.names().size(), "rule"));
            if (policy.file() != null) printPolicy(out, compiled, policy.policy());
            return ExitCodes.OK;
        });
    }
}
