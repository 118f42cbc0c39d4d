package dev.runbook.operator.it;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.simulation.SimulatedControllers;
import dev.runbook.operator.controller.RunbookOperator;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.operator.kube.KubeCluster;
import dev.runbook.operator.testkit.TestCluster;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static dev.runbook.operator.testkit.Objects.at;
import static dev.runbook.operator.testkit.Objects.condition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The shipped postgres-cluster bundle, run by the operator against the API server, with the engine's
 * simulated controllers playing the StatefulSet controller and the kubelet through a {@link KubeCluster}:
 * a PostgresCluster bootstraps from nothing but its resource to Healthy, with a primary and replicas.
 */
class PostgresClusterIT {
    static final Logger LOG = LoggerFactory.getLogger(PostgresClusterIT.class);
    static final Path BUNDLE = Path.of("../runbooks/postgres-cluster");
    /** How often the simulated controllers look at the cluster. */
    static final Duration CONTROLLER_TICK = Duration.ofMillis(200);
    static final Duration BOOTSTRAP = Duration.ofSeconds(60);

    static TestCluster cluster;
    static CompiledBundle bundle;

    KubernetesClient client;
    String namespace;
    RunbookOperator operator;
    ScheduledExecutorService controllers;

    @BeforeAll
    static void startCluster() throws IOException {
        cluster = TestCluster.start();
        try (var crds = Files.list(BUNDLE.resolve("crds"))) {
            crds.sorted().forEach(cluster::installCrd);
        }
        bundle = BundleCompiler.compile(BundleLoader.load(BUNDLE));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) cluster.close();
    }

    @BeforeEach
    void start() {
        client = cluster.client();
        namespace = cluster.newNamespace("pg");
        KubeApi api = new KubeApi(client);
        api.register(bundle.spec().primary());
        KubeCluster view = new KubeCluster(api, namespace, List.of(
                bundle.spec().primary().kind(),
                new Kind("v1", "Pod"), new Kind("apps/v1", "StatefulSet"), new Kind("batch/v1", "Job"),
                new Kind("v1", "Service"), new Kind("v1", "ConfigMap")), Clock.systemUTC());
        SimulatedControllers simulated = new SimulatedControllers(view, Duration.ZERO);
        controllers = Executors.newSingleThreadScheduledExecutor();
        controllers.scheduleWithFixedDelay(() -> {
            try {
                simulated.settle(view.now());
            } catch (RuntimeException e) {
                // A write that raced the operator (409) is simply tried again at the next tick.
                LOG.debug("simulated controllers: {}", e.getMessage());
            }
        }, 0, CONTROLLER_TICK.toMillis(), TimeUnit.MILLISECONDS);
        operator = new RunbookOperator(client, List.of(bundle), Set.of(namespace), Clock.systemUTC());
        operator.start();
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (operator != null) operator.close();
        controllers.shutdownNow();
        controllers.awaitTermination(10, TimeUnit.SECONDS);
    }

    @Test
    void aClusterBootstrapsToHealthyWithAPrimaryAndReplicas() throws IOException {
        GenericKubernetesResource sample;
        try (InputStream in = Files.newInputStream(BUNDLE.resolve("samples/cluster.yaml"))) {
            sample = client.getKubernetesSerialization().unmarshal(in, GenericKubernetesResource.class);
        }
        sample.getMetadata().setNamespace(namespace);
        client.genericKubernetesResources("postgres.runbook.dev/v1alpha1", "PostgresCluster").inNamespace(namespace)
                .resource(sample).create();

        // Converged: Healthy, and a cycle found nothing left to change. (Each action writes on its own,
        // so a read in the middle of a cycle can see the phase before the conditions.)
        Map<String, Object> healthy = await().atMost(BOOTSTRAP).until(this::postgresCluster, pg -> {
            List<Map<String, Object>> actions = at(pg, "status.lastCycle.actions");
            return "Healthy".equals(at(pg, "status.phase")) && actions != null
                    && actions.stream().allMatch(a -> "NONE".equals(a.get("outcome")));
        });

        assertThat((String) at(healthy, "status.currentPrimary")).isEqualTo("pg-0");
        assertThat(((Number) at(healthy, "status.readyInstances")).intValue()).isEqualTo(3);
        assertThat(condition(healthy, "Ready")).containsEntry("status", "True");
        assertThat(condition(healthy, "RunbookApplied")).containsEntry("status", "True");
        assertThat((String) at(healthy, "status.bundleVersion")).isEqualTo(bundle.version());

        StatefulSet set = client.apps().statefulSets().inNamespace(namespace).withName("pg").get();
        assertThat(set.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(o -> assertThat(o.getUid()).isEqualTo(at(healthy, "metadata.uid")));
        List<Pod> pods = client.pods().inNamespace(namespace).list().getItems();
        assertThat(pods).extracting(p -> p.getMetadata().getName() + "=" + p.getMetadata().getLabels().get("postgres.runbook.dev/role"))
                .containsExactlyInAnyOrder("pg-0=primary", "pg-1=replica", "pg-2=replica");
        assertThat(client.services().inNamespace(namespace).list().getItems()).extracting(s -> s.getMetadata().getName())
                .contains("pg-rw", "pg-ro", "pg-instances");
    }

    private Map<String, Object> postgresCluster() {
        GenericKubernetesResource pg = client.genericKubernetesResources("postgres.runbook.dev/v1alpha1", "PostgresCluster")
                .inNamespace(namespace).withName("pg").get();
        return pg == null ? null : client.getKubernetesSerialization().convertValue(pg, Map.class);
    }
}
