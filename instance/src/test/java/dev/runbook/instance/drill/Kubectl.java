package dev.runbook.instance.drill;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** kubectl against the drills' control plane, as an operations engineer types it. */
public record Kubectl(Path kubeconfig) {

    public String apply(String stdin) {
        return withInput(stdin, "apply", "-f", "-");
    }

    public String withInput(String stdin, String... args) {
        List<String> command = new ArrayList<>(List.of("kubectl"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("KUBECONFIG", kubeconfig.toString());
        return Commands.run(builder, stdin, "kubectl " + String.join(" ", args));
    }

    public String run(String... args) {
        return withInput(null, args);
    }
}
