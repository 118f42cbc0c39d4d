package dev.runbook.operator.cli;

import dev.runbook.engine.policy.Policy;
import dev.runbook.engine.policy.PolicyParser;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * {@code --policy FILE}, shared by {@code run}, {@code plan}, {@code test} and {@code lint}: the administrator's
 * policy (docs/security.md), so that an author sees the refusals the operator will make.
 */
final class PolicyOption {
    @Option(names = "--policy", paramLabel = "FILE",
            description = "The operator's policy: per bundle, the namespaces, kinds and cluster-scoped kinds it may touch "
                    + "(default: its primary's namespace, the kinds its bundle.yaml declares, nothing cluster-scoped), "
                    + "and the deadlines and memory its rules run under.")
    Path file;

    /** The policy file's, or {@link Policy#DEFAULT}; a bad file is an {@code InvalidInputException} naming its line. */
    Policy policy() {
        return file == null ? Policy.DEFAULT : PolicyParser.read(file);
    }
}
