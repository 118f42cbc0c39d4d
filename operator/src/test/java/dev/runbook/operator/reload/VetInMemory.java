package dev.runbook.operator.reload;

import dev.runbook.engine.policy.Isolation;
import dev.runbook.engine.policy.Policy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Run by {@link VettingWithoutDiskTest} in a JVM of its own whose temporary directory does not exist:
 * says whether a temporary directory can be made there, then vets the bundle directory given as its
 * argument as the ConfigMap {@code runbook pack} would make of it, in this process.
 */
public final class VetInMemory {
    private VetInMemory() {}

    public static void main(String[] args) {
        try {
            Files.createTempDirectory("runbook-probe-");
            System.out.println("a temporary directory can be made");
        } catch (Exception e) {
            System.out.println("no temporary directory can be made: " + e);
        }
        Map<String, String> data = BundleConfigMaps.pack(Path.of(args[0]));
        Isolation inProcess = new Isolation(Isolation.Trust.IN_PROCESS, Isolation.Trust.IN_PROCESS, Isolation.Worker.SANDBOX,
                null, Isolation.DEFAULT_HEAP_MIB, Isolation.DEFAULT_WORKER_CPU);
        var vetted = new BundleVetting(Policy.DEFAULT.withIsolation(inProcess)).vetData("configmap/ops/app", data);
        System.out.println("vetted: " + vetted.scenarios() + " scenarios passed");
    }
}
