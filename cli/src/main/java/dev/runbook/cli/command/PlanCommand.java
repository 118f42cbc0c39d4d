package dev.runbook.cli.command;

import dev.runbook.operator.command.ExitCodes;
import dev.runbook.operator.command.BundleArgument;
import dev.runbook.operator.command.Failures;
import dev.runbook.operator.command.PolicyOption;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.plan.PlanYaml;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import dev.runbook.engine.state.ObservationBuilder;
import dev.runbook.engine.state.ApiTypes;
import dev.runbook.engine.state.StateFiles;
import dev.runbook.engine.bundle.CrdSchemas;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code runbook plan BUNDLE --state FILE...}: what would the rules do now? Prints the fired rules,
 * the facts they matched and the actions, as YAML. Exit 1 when the plan is refused by its check.
 */
@Command(name = "plan", description = "Show what the bundle's rules would do for an observed state, and why.")
final class PlanCommand implements Callable<Integer> {
    private final Clock clock;

    @Parameters(index = "0", paramLabel = "BUNDLE", description = "The bundle directory (it holds bundle.yaml).")
    Path bundle;

    @Option(names = "--state", required = true, arity = "1..*", paramLabel = "FILE",
            description = "YAML files of Kubernetes objects (multi-document, or kind: List).")
    List<Path> state;

    @Option(names = "--now", paramLabel = "TIME", description = "The cycle's time, RFC 3339 (default: the system clock).")
    String now;

    @Option(names = "--param", paramLabel = "NAME=VALUE", description = "Override a bundle parameter (repeatable).")
    Map<String, String> params = new LinkedHashMap<>();

    @Option(names = "--primary", paramLabel = "NAME", description = "Which primary resource, when the state holds several.")
    String primaryName;

    @Mixin
    PolicyOption policy = new PolicyOption();

    @Spec
    CommandSpec spec;

    PlanCommand(Clock clock) {
        this.clock = clock;
    }

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        var err = spec.commandLine().getErr();
        return Failures.guard(err, () -> {
            CompiledBundle compiled = BundleArgument.compile(bundle);
            // What is observed has the types the API server sends: the bundle's CRDs say which for its kinds.
            ApiTypes types = ApiTypes.of(CrdSchemas.read(bundle));
            Observation observation = ObservationBuilder.build(compiled.spec(), StateFiles.read(state, types), primaryName,
                    time(), params);
            Decision decision;
            try {
                decision = DecisionCycle.run(compiled, observation, policy.policy());
            } catch (IllegalArgumentException e) {
                throw new InvalidInputException(Problem.inFile("--param", e.getMessage()));
            }
            out.print(PlanYaml.dump(PlanYaml.toMap(decision, observation.primary().toString())));
            if (!decision.isValid()) {
                err.println("runbook: the plan is refused: " + decision.problems().size()
                        + " problem(s), listed under problems; nothing would be applied");
                return ExitCodes.CHECK_FAILED;
            }
            return ExitCodes.OK;
        });
    }

    private Instant time() {
        return NowOption.time(now, clock);
    }
}
