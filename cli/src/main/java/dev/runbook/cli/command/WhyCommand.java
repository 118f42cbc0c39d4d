package dev.runbook.cli.command;

import dev.runbook.operator.command.ExitCodes;
import dev.runbook.operator.command.BundleArgument;
import dev.runbook.operator.command.Failures;
import dev.runbook.operator.command.PolicyOption;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.explain.WhyNot;
import dev.runbook.engine.plan.PlanYaml;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.kube.Kubeconfig;
import dev.runbook.cli.why.LiveObservation;
import dev.runbook.cli.why.OperatorDecisions;
import dev.runbook.cli.why.RunningBundle;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import dev.runbook.operator.error.RootCause;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code runbook why [NAMESPACE/]NAME}: what the rules decide for a live resource now, and why (the plan
 * as {@code plan} prints it, from the cluster as the operator observes it, with the bundle it runs);
 * with {@code --rule}, why one rule fires or not, condition by condition; with {@code --history}, the
 * last decisions the operator made for it. kubectl's {@code -n}, {@code --context} and {@code --kubeconfig}
 * work as in kubectl, so it runs as {@code kubectl runbook why}. See docs/why.md.
 */
@Command(name = "why", description = "Explain a live resource: what the rules decide for it now and why, why a rule does "
        + "not fire (--rule), or the operator's last decisions for it (--history).")
final class WhyCommand implements Callable<Integer> {
    private final Clock clock;

    @Parameters(index = "0", paramLabel = "[NAMESPACE/]NAME", description = "The primary resource.")
    String target;

    @Option(names = {"-n", "--namespace"}, paramLabel = "NS", description = "Its namespace (default: the kubeconfig context's).")
    String namespace;

    @Option(names = "--context", paramLabel = "CONTEXT", description = "The kubeconfig context to use (as kubectl's).")
    String context;

    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "The kubeconfig file (default: KUBECONFIG, else ~/.kube/config).")
    Path kubeconfig;

    @Option(names = "--bundle", paramLabel = "DIR", description = "Decide with this bundle directory (default: the bundle in "
            + "the operator's namespace whose version the resource's status.bundleVersion names).")
    Path bundle;

    /** Where deploy/ and the chart install the operator: why's --operator-namespace when none is given. */
    static final String INSTALLED_NAMESPACE = "runbook-system";

    @Option(names = "--rule", paramLabel = "NAME", description = "Explain this rule: whether it fires now, else which of its "
            + "conditions and constraints matched, and the first that did not, with the facts it was tested against.")
    String rule;

    @Option(names = "--now", paramLabel = "TIME", description = "The cycle's time, RFC 3339 (default: the system clock).")
    String now;

    @Option(names = "--history", description = "Show the operator's last decisions for the resource, newest first, each with "
            + "its trace and outcomes (from /decisions/NAMESPACE/NAME on the operator's HTTP port).")
    boolean history;

    @Option(names = "--decision", paramLabel = "CYCLE", description = "With --history: only the decision of this cycle "
            + "(the id in the log line, and in the annotation runbook.dev/cycle of the event that announced its changes).")
    String decision;

    @Option(names = "--operator-url", paramLabel = "URL", description = "With --history: the operator's HTTP port, e.g. "
            + "http://127.0.0.1:8080 after kubectl port-forward (default: through the API server to the leader's pod).")
    String operatorUrl;

    @Option(names = "--operator-pod", paramLabel = "POD", description = "With --history: the operator's pod to ask "
            + "(default: the one holding the Lease).")
    String operatorPod;

    @Option(names = "--operator-port", paramLabel = "PORT", defaultValue = "8080",
            description = "With --history: the operator's --http-port (default: ${DEFAULT-VALUE}).")
    int operatorPort;

    @Option(names = "--lease", paramLabel = "NAME", defaultValue = "runbook-operator",
            description = "With --history: the operator's Lease (default: ${DEFAULT-VALUE}).")
    String lease;

    @Mixin
    PolicyOption policy = new PolicyOption();

    @Spec
    CommandSpec spec;

    /** The policy the operator enforces: its own namespace reserved, as run reserves it. */
    private dev.runbook.engine.policy.Policy enforced() {
        return policy.operatorNamespace() == null ? policy.policy().reserving(INSTALLED_NAMESPACE) : policy.policy();
    }

    /** --operator-namespace (PolicyOption's, shared with the other commands): its bundle ConfigMaps and its Lease. */
    private String operatorNamespace() {
        return policy.operatorNamespace() == null ? INSTALLED_NAMESPACE : policy.operatorNamespace();
    }

    WhyCommand(Clock clock) {
        this.clock = clock;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        return Failures.guard(err, () -> {
            if (decision != null && !history) throw new InvalidInputException(Problem.inFile("--decision", "goes with --history"));
            if (history && rule != null) throw new InvalidInputException(Problem.inFile("--rule", "explains the decision made now; "
                    + "leave out --history (whose decisions hold the rules that fired then)"));
            try {
                if (history && operatorUrl != null) return printHistory(out, err, null);
                try (KubernetesClient client = Kubeconfig.connect(System.getenv(), kubeconfig, context)) {
                    return history ? printHistory(out, err, client) : explainNow(out, err, client);
                }
            } catch (KubernetesClientException | IllegalStateException e) {
                // The cluster or the operator did not answer, or answered with an error: nothing to explain with.
                err.println("runbook: " + (e instanceof IllegalStateException ? e.getMessage() : RootCause.message(e)));
                return ExitCodes.CHECK_FAILED;
            }
        });
    }

    /** The namespace and the name the target names. */
    private String[] target(KubernetesClient client) {
        int slash = target.indexOf('/');
        if (slash >= 0 && namespace != null && !namespace.equals(target.substring(0, slash))) {
            throw new InvalidInputException(Problem.inFile(target, "names namespace " + target.substring(0, slash)
                    + " but -n says " + namespace + ": give one of them"));
        }
        if (slash >= 0) return new String[] {target.substring(0, slash), target.substring(slash + 1)};
        String ns = namespace != null ? namespace : client != null && client.getNamespace() != null ? client.getNamespace() : "default";
        return new String[] {ns, target};
    }

    private int explainNow(PrintWriter out, PrintWriter err, KubernetesClient client) {
        String[] where = target(client);
        KubeApi api = new KubeApi(client);
        LiveObservation live = new LiveObservation(api);
        RunningBundle running = new RunningBundle(client, live, operatorNamespace(), BundleArgument::compile);
        RunningBundle.Resolved resolved = bundle != null ? running.fromDirectory(bundle, where[0], where[1])
                : running.fromOperatorNamespace(where[0], where[1]);
        Observation observation = live.observe(resolved.bundle().spec(), resolved.primary(), NowOption.time(now, clock));
        Decision decided = DecisionCycle.run(resolved.bundle(), observation, enforced());
        err.println("runbook: " + observation.primary() + " as observed at " + observation.now() + ", decided by bundle "
                + resolved.bundle() + " from " + resolved.origin() + "; nothing was applied");
        if (resolved.warning() != null) err.println("runbook: " + resolved.warning());
        if (rule != null) {
            out.print(PlanYaml.dump(WhyNot.explain(resolved.bundle(), observation, enforced(), rule, decided,
                    BundleArgument::compile).toMap()));
            return ExitCodes.OK;
        }
        out.print(PlanYaml.dump(PlanYaml.toMap(decided, observation.primary().toString())));
        if (!decided.isValid()) {
            err.println("runbook: the plan is refused: " + decided.problems().size()
                    + " problem(s), listed under problems; the operator applies none of it");
            return ExitCodes.CHECK_FAILED;
        }
        return ExitCodes.OK;
    }

    private int printHistory(PrintWriter out, PrintWriter err, KubernetesClient client) {
        String[] where = target(client);
        List<Map<String, Object>> decisions;
        try {
            decisions = client == null ? OperatorDecisions.fromUrl(operatorUrl, where[0], where[1])
                    : OperatorDecisions.throughTheApiServer(client, operatorNamespace(), operatorPod, lease, operatorPort, where[0], where[1]);
        } catch (OperatorDecisions.NoDecisions e) {
            err.println("runbook: " + e.getMessage());
            return ExitCodes.CHECK_FAILED;
        }
        if (decision != null) {
            decisions = decisions.stream().filter(d -> decision.equals(d.get("cycle")) || decision.equals(d.get("lastCycle"))).toList();
            if (decisions.isEmpty()) {
                err.println("runbook: no kept decision of " + where[0] + "/" + where[1] + " is cycle " + decision
                        + " (a repeated decision names its first and last cycles; older ones are not kept)");
                return ExitCodes.CHECK_FAILED;
            }
        }
        out.print(PlanYaml.dump(Map.of("decisions", decisions)));
        return ExitCodes.OK;
    }
}
