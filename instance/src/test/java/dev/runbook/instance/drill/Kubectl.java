package dev.runbook.instance.drill;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** kubectl against the drills' control plane, as an operations engineer types it. */
record Kubectl(Path kubeconfig) {

    String apply(String stdin) {
        return withInput(stdin, "apply", "-f", "-");
    }

    String withInput(String stdin, String... args) {
        List<String> command = new ArrayList<>(List.of("kubectl"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("KUBECONFIG", kubeconfig.toString());
        try {
            Process p = builder.start();
            if (stdin != null) {
                p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("kubectl " + String.join(" ", args) + " failed: " + out);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    String run(String... args) {
        return withInput(null, args);
    }
}
