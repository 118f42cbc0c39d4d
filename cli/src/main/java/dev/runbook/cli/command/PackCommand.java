package dev.runbook.cli.command;

import dev.runbook.operator.command.ExitCodes;
import dev.runbook.operator.command.BundleArgument;
import dev.runbook.operator.command.Failures;
import dev.runbook.operator.command.PolicyOption;
import dev.runbook.engine.bundle.BundleSpecParser;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.files.BundleFiles;
import dev.runbook.engine.policy.Policy;
import dev.runbook.engine.problem.Problem;
import dev.runbook.operator.controller.BundleRefusedException;
import dev.runbook.operator.reload.BundleVetting;
import dev.runbook.operator.reload.BundleConfigMaps;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code runbook pack BUNDLE}: prints the bundle as a ConfigMap for the operator's hot reload, ready for
 * {@code kubectl apply -f -} in the operator's namespace. It first runs the check the operator runs
 * before it accepts a bundle (compile, what the policy says of the bundle, then every scenario, under
 * {@code --policy}) on what the ConfigMap carries, and prints nothing when that fails: exit 2 for a bundle
 * that does not compile, 1 for one the policy or a scenario refuses. {@code --no-check} skips it. See
 * docs/shipping.md.
 */
@Command(name = "pack", description = "Print a bundle as a ConfigMap that a running operator loads (kubectl apply -f -).")
final class PackCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "BUNDLE", description = "The bundle directory (it holds bundle.yaml).")
    Path bundle;

    @Option(names = "--name", paramLabel = "NAME", description = "The ConfigMap's name (default: runbook-bundle-<bundle name>).")
    String name;

    @Option(names = "--namespace", paramLabel = "NS", description = "Its namespace (default: none, so kubectl's -n decides).")
    String namespace;

    @Option(names = "--no-check", description = "Print without compiling the bundle and running its scenarios first.")
    boolean noCheck;

    @Mixin
    PolicyOption policy = new PolicyOption();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        return Failures.guard(spec.commandLine().getErr(), () -> {
            Map<String, String> data = BundleConfigMaps.pack(bundle);
            if (!noCheck) {
                // The operator's own gate on exactly what the ConfigMap carries, before anything is printed: a
                // bundle the operator would refuse is never packed. (The operator vets it again: docs/security.md.)
                Policy given = policy.policy();
                Policy granted = namespace == null ? given : given.reserving(namespace);
                BundleVetting vetting = new BundleVetting(granted);
                String origin = bundle.toString();
                try {
                    CompiledBundle compiled = BundleArgument.compile(bundle);
                    for (Problem warning : compiled.warnings()) spec.commandLine().getErr().println("warning: " + warning);
                    vetting.checkCompiled(origin, BundleFiles.of(BundleConfigMaps.bundleFiles(origin, data)), compiled);
                } catch (BundleRefusedException refusal) {
                    spec.commandLine().getErr().println(refusal.brief("nothing was printed: fix the bundle, or pack it anyway "
                            + "with --no-check", "runbook test " + bundle + (policy.file() == null ? "" : " --policy " + policy.file())
                            + " shows them all"));
                    return ExitCodes.CHECK_FAILED;
                }
            }
            // The parser names its problems after bundle.yaml.
            String bundleName = BundleSpecParser.parse(data.get(BundleSpecParser.FILE)).name();
            spec.commandLine().getOut().print(dump(configMap(bundleName, data)));
            return ExitCodes.OK;
        });
    }

    private Map<String, Object> configMap(String bundleName, Map<String, String> data) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", name != null ? name : "runbook-bundle-" + bundleName);
        if (namespace != null) metadata.put("namespace", namespace);
        metadata.put("labels", Map.of(BundleConfigMaps.LABEL, bundleName));
        Map<String, Object> configMap = new LinkedHashMap<>();
        configMap.put("apiVersion", "v1");
        configMap.put("kind", "ConfigMap");
        configMap.put("metadata", metadata);
        configMap.put("data", data);
        return configMap;
    }

    /** YAML with each file as a literal block, so the ConfigMap reads like the files it carries. */
    private static String dump(Map<String, Object> configMap) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setIndent(2);
        options.setWidth(Integer.MAX_VALUE);
        options.setSplitLines(false);
        Representer representer = new Representer(options) {
            {
                representers.put(String.class, data -> {
                    String text = (String) data;
                    return representScalar(Tag.STR, text, text.contains("\n") ? DumperOptions.ScalarStyle.LITERAL : defaultScalarStyle);
                });
            }
        };
        return new Yaml(representer, options).dump(configMap);
    }
}
