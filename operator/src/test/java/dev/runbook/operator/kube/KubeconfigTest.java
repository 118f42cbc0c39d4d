package dev.runbook.operator.kube;

import dev.runbook.engine.problem.InvalidInputException;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** A kubeconfig that cannot be used is named in one line, with its line and column when it is not YAML. */
class KubeconfigTest {
    @TempDir
    Path dir;

    private String refusal(Path kubeconfig) {
        InvalidInputException e = catchThrowableOfType(InvalidInputException.class,
                () -> Kubeconfig.connect(Map.of("KUBECONFIG", kubeconfig.toString())).close());
        assertThat(e).as("refused").isNotNull();
        assertThat(e.getProblems()).hasSize(1);
        String message = e.getProblems().get(0).toString();
        assertThat(message).doesNotContain("\n\tat ");
        return message;
    }

    @Test
    void kubeconfigAndContextChooseAsKubectlsFlagsDo() throws IOException {
        Path file = dir.resolve("two-clusters");
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters:
                - {name: dev, cluster: {server: "https://dev.example:6443"}}
                - {name: prod, cluster: {server: "https://prod.example:6443"}}
                users:
                - {name: me, user: {token: t}}
                contexts:
                - {name: dev, context: {cluster: dev, user: me, namespace: apps}}
                - {name: prod, context: {cluster: prod, user: me, namespace: databases}}
                current-context: dev
                """);
        try (var client = Kubeconfig.connect(Map.of(), file, null)) {
            assertThat(client.getMasterUrl().toString()).startsWith("https://dev.example:6443");
            assertThat(client.getNamespace()).isEqualTo("apps");
        }
        try (var client = Kubeconfig.connect(Map.of(), file, "prod")) {
            assertThat(client.getMasterUrl().toString()).startsWith("https://prod.example:6443");
            assertThat(client.getNamespace()).isEqualTo("databases");
        }
        // A context the file does not have is refused: the client would quietly take the current one.
        InvalidInputException e = catchThrowableOfType(InvalidInputException.class, () -> Kubeconfig.connect(Map.of(), file, "prd"));
        assertThat(e.getProblems()).singleElement().hasToString(file + ": --context prd: no such context (there are: dev, prod)");
    }

    @Test
    void brokenYamlIsNamedWithItsLine() throws IOException {
        Path kubeconfig = Files.writeString(dir.resolve("config"), "apiVersion: v1\nkind: Config\nclusters: [a\n");
        assertThat(refusal(kubeconfig)).startsWith(kubeconfig + ":4:1: not valid YAML");
    }

    @Test
    void aBinaryFileIsNamedAsNotText() throws IOException {
        Path kubeconfig = Files.write(dir.resolve("config"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 0});
        assertThat(refusal(kubeconfig)).startsWith(kubeconfig + ":1:1: not UTF-8 text");
    }

    @Test
    void aYamlListIsNotAKubeconfig() throws IOException {
        Path kubeconfig = Files.writeString(dir.resolve("config"), "- a\n- b\n");
        assertThat(refusal(kubeconfig)).contains("is not a kubeconfig");
    }

    @Test
    void requestsWaitAsLongAsTheApiServerWouldUnlessTheUserSetsATimeout() {
        Config base = new ConfigBuilder(Config.empty()).withMasterUrl("https://127.0.0.1:6443").build();
        assertThat(base.getRequestTimeout()).as("fabric8's own default").isEqualTo(Config.DEFAULT_REQUEST_TIMEOUT);

        assertThat(Kubeconfig.withRequestTimeout(base, Map.of(), new Properties()).getRequestTimeout())
                .isEqualTo(60_000);
        assertThat(Kubeconfig.withRequestTimeout(base, Map.of(), new Properties()).getMasterUrl()).isEqualTo(base.getMasterUrl());

        Config userSet = new ConfigBuilder(base).withRequestTimeout(5_000).build();
        assertThat(Kubeconfig.withRequestTimeout(userSet, Map.of("KUBERNETES_REQUEST_TIMEOUT", "5000"), new Properties())
                .getRequestTimeout()).isEqualTo(5_000);
        Properties property = new Properties();
        property.setProperty("kubernetes.request.timeout", "5000");
        assertThat(Kubeconfig.withRequestTimeout(userSet, Map.of(), property).getRequestTimeout()).isEqualTo(5_000);
    }
}
