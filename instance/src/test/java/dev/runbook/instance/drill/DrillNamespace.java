package dev.runbook.instance.drill;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The end of a real-PostgreSQL suite's namespace: its objects and events kept for reading, then it and its volumes deleted. */
public final class DrillNamespace {
    private DrillNamespace() {}

    /** {@code volumeLabel}: the label ({@code runbook.dev/pg-drills}, ...) the suite put on its PersistentVolumes, valued with the namespace. */
    public static void saveAndDelete(Kubectl kubectl, String namespace, Path work, String volumeLabel) {
        try {
            Files.writeString(work.resolve(namespace + "-objects.yaml"),
                    kubectl.run("-n", namespace, "get", "postgresclusters,pods,events", "-o", "yaml"));
        } catch (IOException | RuntimeException e) {
            System.out.println("could not save the namespace's objects: " + e.getMessage());
        }
        kubectl.run("delete", "namespace", namespace, "--wait=false");
        kubectl.run("delete", "pv", "-l", volumeLabel + "=" + namespace, "--wait=false");
    }
}
