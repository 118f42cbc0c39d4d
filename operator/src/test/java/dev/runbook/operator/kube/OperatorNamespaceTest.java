package dev.runbook.operator.kube;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which namespace is the operator's own: the option, else the pod's, else none. A kubeconfig's namespace is
 * never taken for it: run locally, the operator took {@code default} for its own and refused every plan of
 * a sample in {@code default} (docs/tutorial.md, part 4).
 */
class OperatorNamespaceTest {
    @TempDir
    Path dir;

    private Path kubeconfig() throws IOException {
        return Files.writeString(dir.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                contexts:
                - name: local
                  context: {cluster: local, user: admin, namespace: default}
                current-context: local
                """);
    }

    private Path serviceAccountNamespace(String namespace) throws IOException {
        return Files.writeString(dir.resolve("namespace"), namespace + "\n");
    }

    @Test
    void outsideAPodThereIsNoneEvenWhenTheKubeconfigNamesOne() throws IOException {
        OperatorNamespace own = OperatorNamespace.resolve(null, Map.of("KUBECONFIG", kubeconfig().toString()),
                dir.resolve("no-service-account"));
        assertThat(own.name()).isEmpty();
        assertThat(own.missingFor("--bundle-configmaps")).startsWith("--bundle-configmaps keeps its state in the operator's own "
                + "namespace, and outside a pod there is none: give --operator-namespace NS");
    }

    @Test
    void theOptionWinsEverywhere() throws IOException {
        OperatorNamespace own = OperatorNamespace.resolve("runbook-system", Map.of("POD_NAMESPACE", "elsewhere"),
                serviceAccountNamespace("other"));
        assertThat(own).isEqualTo(new OperatorNamespace(Optional.of("runbook-system"), "--operator-namespace"));
        assertThat(own.missingFor("--leader-election")).isNull();
    }

    @Test
    void inAPodItIsThePodsNamespace() throws IOException {
        assertThat(OperatorNamespace.resolve(null, Map.of("POD_NAMESPACE", "runbook-system"), dir.resolve("none")).name())
                .contains("runbook-system");
    }

    @Test
    void inAPodWithoutTheDownwardApiItIsTheServiceAccountsNamespace() throws IOException {
        Map<String, String> noKubeconfig = Map.of("KUBECONFIG", dir.resolve("absent").toString());
        OperatorNamespace own = OperatorNamespace.resolve(null, noKubeconfig, serviceAccountNamespace("ops"));
        assertThat(own).isEqualTo(new OperatorNamespace(Optional.of("ops"), "the pod's service account"));
    }

    @Test
    void aKubeconfigInUseMeansNotInAPodEvenWithAServiceAccountFileAround() throws IOException {
        OperatorNamespace own = OperatorNamespace.resolve(null, Map.of("KUBECONFIG", kubeconfig().toString()),
                serviceAccountNamespace("ops"));
        assertThat(own.name()).isEmpty();
    }
}
