package dev.runbook.operator.kube;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The operator's own namespace: where it watches bundle ConfigMaps, keeps its Leases and the copies of
 * accepted bundles, and which its bundles may never act in (docs/install.md#its-own-namespace). Given with
 * {@code --operator-namespace}; else, in a pod, the pod's ({@code $POD_NAMESPACE}, else its service
 * account's namespace); else there is none.
 *
 * <p>Outside a pod the kubeconfig's namespace is not taken for it: that is where its user's
 * {@code kubectl} works by default ({@code default}, most often), and a namespace the operator calls its
 * own is one its bundles may not touch, so the samples a reader applies there would be refused.
 * Controller-runtime refuses to guess its leader-election namespace out of a cluster for the same reason.
 *
 * @param name   the namespace, or empty when the operator has none
 * @param source where it came from, for messages: an option, the pod, or why there is none
 */
public record OperatorNamespace(Optional<String> name, String source) {
    /** Where a pod's service account token, and the namespace file beside it, are mounted. */
    public static final Path SERVICE_ACCOUNT_NAMESPACE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

    /**
     * @param option                  {@code --operator-namespace}, or null
     * @param environment             the process's: {@code POD_NAMESPACE}, {@code KUBECONFIG}
     * @param serviceAccountNamespace the namespace file of the pod's service account (read when no kubeconfig is in use)
     */
    public static OperatorNamespace resolve(String option, Map<String, String> environment, Path serviceAccountNamespace) {
        if (option != null && !option.isBlank()) return new OperatorNamespace(Optional.of(option), "--operator-namespace");
        String pod = environment.get("POD_NAMESPACE");
        if (pod != null && !pod.isBlank()) return new OperatorNamespace(Optional.of(pod.strip()), "$POD_NAMESPACE");
        if (Kubeconfig.files(environment).isEmpty() && Files.isRegularFile(serviceAccountNamespace)) {
            return new OperatorNamespace(Optional.of(read(serviceAccountNamespace)), "the pod's service account");
        }
        return new OperatorNamespace(Optional.empty(), "none: not in a pod, and no --operator-namespace");
    }

    /** Why {@code feature} cannot run without one, and the fix; null when there is one. */
    public String missingFor(String feature) {
        if (name.isPresent()) return null;
        return feature + " keeps its state in the operator's own namespace, and outside a pod there is none: "
                + "give --operator-namespace NS (the namespace of an installed operator is runbook-system; see "
                + "docs/install.md#running-it-locally-against-an-installed-cluster)";
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
