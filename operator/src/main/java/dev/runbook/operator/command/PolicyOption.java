package dev.runbook.operator.command;

import dev.runbook.engine.policy.Policy;
import dev.runbook.engine.policy.PolicyParser;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * {@code --policy FILE} and {@code --operator-namespace NS}, shared by {@code run}, {@code plan}, {@code test},
 * {@code lint} and {@code pack}: the administrator's policy (docs/security.md) and the namespace the operator
 * keeps for itself, the two things besides a bundle that decide what the operator refuses, so that an author
 * sees the refusals the operator will make.
 */
public final class PolicyOption {
    @Option(names = "--policy", paramLabel = "FILE",
            description = "The operator's policy: per bundle, the namespaces, kinds and cluster-scoped kinds it may touch "
                    + "(default: its primary's namespace, the kinds its bundle.yaml declares, nothing cluster-scoped), "
                    + "and the deadlines and memory its rules run under.")
    Path file;

    @Option(names = "--operator-namespace", paramLabel = "NS",
            description = "The operator's own namespace, which no bundle may act in; for run also where it keeps bundle "
                    + "ConfigMaps, its Leases and the webhook's certificate (default in a pod: the pod's; outside a pod: "
                    + "none, and run's --bundle-configmaps, --leader-election, --shards and --webhook-port need it).")
    String operatorNamespace;

    /**
     * The policy file's, or {@link Policy#DEFAULT}, with {@code --operator-namespace} reserved; a bad file is an
     * {@code InvalidInputException} naming its line.
     */
    public Policy policy() {
        Policy policy = file == null ? Policy.DEFAULT : PolicyParser.read(file);
        return operatorNamespace == null ? policy : policy.reserving(operatorNamespace);
    }

    /** The {@code --policy} file, or null when none was given. */
    public Path file() {
        return file;
    }

    /** The {@code --operator-namespace}, or null when none was given. */
    public String operatorNamespace() {
        return operatorNamespace;
    }
}
