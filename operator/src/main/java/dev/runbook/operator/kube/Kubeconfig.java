package dev.runbook.operator.kube;

import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import dev.runbook.engine.yaml.TextFiles;
import dev.runbook.engine.yaml.YamlFile;
import dev.runbook.operator.error.RootCause;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.utils.HttpClientUtils;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The API client {@code runbook run} uses, from KUBECONFIG (a list of files, as kubectl reads it),
 * else {@code ~/.kube/config}, else the pod's service account. Each kubeconfig file is read as text and
 * parsed as YAML first, so that a broken one is reported as {@code file:line:col: message} in one line
 * rather than as the client's stack trace; whatever else the client refuses is reported in one line too.
 */
public final class Kubeconfig {
    /** A kubeconfig is small; this keeps a wrong file (an image, a log) from being parsed at length. */
    static final long MAX_BYTES = 1L << 20;
    /**
     * How long one request may wait for the API server's answer, unless {@code KUBERNETES_REQUEST_TIMEOUT}
     * (or {@code -Dkubernetes.request.timeout}) says otherwise: the API server's own limit (its
     * {@code --request-timeout}, 60 s by default), as client-go, kubectl and controller-runtime wait.
     * fabric8's default, 10 s, gave up on server-side applies that an overloaded API server finished
     * later: at 1000 clusters the same Service apply was sent up to 8 times, 10 s each, every one
     * abandoned (docs/operations.md#the-backoff-after-a-temporary-failure).
     */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);
    static final String REQUEST_TIMEOUT_VARIABLE = "KUBERNETES_REQUEST_TIMEOUT";

    private Kubeconfig() {}

    /** @throws InvalidInputException naming the kubeconfig file (and line) that cannot be used */
    public static KubernetesClient connect(Map<String, String> environment) {
        return connect(environment, null, null);
    }

    /**
     * As kubectl's {@code --kubeconfig} and {@code --context} choose: {@code kubeconfig} instead of KUBECONFIG
     * when given, {@code context} instead of the file's current context when given.
     *
     * @throws InvalidInputException naming the kubeconfig file (and line) that cannot be used
     */
    public static KubernetesClient connect(Map<String, String> environment, Path kubeconfig, String context) {
        List<Path> files = kubeconfig != null ? List.of(kubeconfig) : files(environment);
        if (kubeconfig != null && !Files.isRegularFile(kubeconfig)) {
            throw new InvalidInputException(Problem.inFile(kubeconfig.toString(), "--kubeconfig: no such file"));
        }
        List<String> contexts = new ArrayList<>();
        for (Path file : files) contexts.addAll(check(file));
        if (context != null && !contexts.contains(context)) {
            // The client would quietly take the current context: another cluster than the one asked for.
            throw new InvalidInputException(Problem.inFile(files.isEmpty() ? "--context" : files.get(0).toString(),
                    "--context " + context + ": no such context (there are: " + String.join(", ", contexts) + ")"));
        }
        try {
            Config loaded = kubeconfig != null ? Config.fromKubeconfig(context, kubeconfig.toFile()) : Config.autoConfigure(context);
            Config config = withRequestTimeout(loaded, environment, System.getProperties());
            return client(config);
        } catch (RuntimeException e) {
            String where = files.isEmpty() ? "the pod's service account" : files.get(0).toString();
            throw new InvalidInputException(Problem.inFile(where, "cannot be used to reach a cluster: "
                    + RootCause.message(e) + " (set KUBECONFIG to a working kubeconfig, e.g. one `kubectl get ns` accepts)"));
        }
    }

    /**
     * The operator's client for {@code config}: fabric8's, with {@link ThrottledTokenRefresh} in place of its
     * token refresh, so that a client with a certificate does not read its configuration before every request;
     * its watch events read generically ({@link GenericWatchEvents}).
     */
    public static KubernetesClient client(Config config) {
        HttpClient.Factory factory = HttpClientUtils.getHttpClientFactory();
        return new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(factory)
                .withKubernetesSerialization(new GenericWatchEvents())
                .withHttpClientBuilderConsumer(ThrottledTokenRefresh.replacing(config, factory, Clock.systemUTC()))
                .build();
    }

    /** {@code config} with {@link #REQUEST_TIMEOUT}, unless the environment or a system property set its own. */
    static Config withRequestTimeout(Config config, Map<String, String> environment, Properties properties) {
        if (environment.get(REQUEST_TIMEOUT_VARIABLE) != null
                || properties.getProperty(Config.KUBERNETES_REQUEST_TIMEOUT_SYSTEM_PROPERTY) != null) {
            return config;
        }
        return new ConfigBuilder(config).withRequestTimeout((int) REQUEST_TIMEOUT.toMillis()).build();
    }

    /** The files KUBECONFIG names (the ones that exist, as kubectl skips missing ones), else ~/.kube/config if it exists. */
    static List<Path> files(Map<String, String> environment) {
        List<Path> files = new ArrayList<>();
        String list = environment.get("KUBECONFIG");
        if (list != null && !list.isBlank()) {
            for (String entry : list.split(File.pathSeparator)) {
                if (!entry.isBlank() && Files.isRegularFile(Path.of(entry))) files.add(Path.of(entry));
            }
            return files;
        }
        Path home = Path.of(System.getProperty("user.home"), ".kube", "config");
        if (Files.isRegularFile(home)) files.add(home);
        return files;
    }

    /** Reads and parses the file, refusing what is not a kubeconfig; returns the names of its contexts. */
    private static List<String> check(Path file) {
        String text = TextFiles.read(file, file.toString(), MAX_BYTES, "a kubeconfig");
        if (!(YamlFile.toJava(YamlFile.document(file.toString(), text)) instanceof Map<?, ?> kubeconfig)) {
            throw new InvalidInputException(Problem.inFile(file.toString(),
                    "is not a kubeconfig: expected a mapping with clusters, users and contexts"));
        }
        List<String> names = new ArrayList<>();
        if (kubeconfig.get("contexts") instanceof List<?> contexts) {
            for (Object entry : contexts) {
                if (entry instanceof Map<?, ?> named && named.get("name") != null) names.add(String.valueOf(named.get("name")));
            }
        }
        return names;
    }
}
