package dev.runbook.cli.command;

import dev.runbook.operator.command.ExitCodes;
import dev.runbook.operator.command.Failures;

import dev.runbook.cli.rbac.BundleRbac;
import dev.runbook.cli.rbac.RbacManifests;
import dev.runbook.cli.rbac.TemplateRoles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code runbook rbac BUNDLE [--namespace NS]... [--service-account NS/NAME] [--chart-rules]}: prints the
 * least-privilege Role and RoleBinding per namespace (a ClusterRole without {@code --namespace}) that
 * the operator needs to run the bundle ({@link BundleRbac}); with {@code --chart-rules}, only the rules, as
 * the Helm chart's rbac-rules.yaml holds them (deploy/20-rbac.yaml is rendered from the chart).
 */
@Command(name = "rbac", description = "Print the Role (or ClusterRole) the operator needs to run a bundle.")
final class RbacCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "BUNDLE", description = "The bundle directory (it holds bundle.yaml).")
    Path bundle;

    @Option(names = "--namespace", paramLabel = "NS",
            description = "A namespace the bundle acts in: a Role and RoleBinding there (repeatable). Without it, a ClusterRole.")
    List<String> namespaces = new ArrayList<>();

    @Option(names = "--service-account", paramLabel = "NS/NAME", defaultValue = "runbook-system/runbook-operator",
            description = "The operator's service account (default: ${DEFAULT-VALUE}).")
    String serviceAccount;

    @Option(names = "--chart-rules",
            description = "Print only the rules, as the Helm chart's deploy/chart/rbac-rules.yaml holds them (no Role, no binding).")
    boolean chartRules;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        var out = spec.commandLine().getOut();
        return Failures.guard(spec.commandLine().getErr(), () -> {
            var needed = BundleRbac.needed(bundle);
            if (chartRules) {
                out.print(RbacManifests.chartRules(needed, BundleRbac.clusterReads(bundle)));
                out.flush();
                return ExitCodes.OK;
            }
            String name = "runbook-" + BundleRbac.spec(bundle).name();
            List<String> roles = TemplateRoles.files(bundle.resolve("templates"));
            if (!roles.isEmpty()) {
                out.println("# The bundle makes Roles (templates/" + String.join(", templates/", roles) + "). RBAC lets the operator create");
                out.println("# and bind them only with rights it holds itself (no escalate or bind verb): what they grant is included below.");
            }
            out.print(RbacManifests.render(name, needed, BundleRbac.clusterReads(bundle), namespaces, serviceAccount));
            out.flush();
            return ExitCodes.OK;
        });
    }
}
