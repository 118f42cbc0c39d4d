package dev.runbook.operator.testkit;

import dev.runbook.engine.bundle.Kind;
import dev.runbook.testkit.simulation.SimulatedControllers;
import dev.runbook.operator.kube.KubeApi;
import dev.runbook.sandbox.KubeCluster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * On an API server that runs no pods (the embedded mock), the engine's simulated controllers play
 * the cluster's own (StatefulSets, Deployments, the kubelet, Jobs, garbage collection) against it
 * every {@link #TICK}; on a real control plane they do nothing, and the cluster's controllers and
 * kwok do the work.
 */
public final class MockControllers implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MockControllers.class);
    /** How often the simulated controllers look at the cluster. */
    public static final Duration TICK = Duration.ofMillis(200);

    private final KubeCluster view;
    private final SimulatedControllers simulated;
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
    private final boolean running;

    /** Starts them when {@code cluster} runs no pods of its own; {@code kinds} are what they see. */
    public MockControllers(TestCluster cluster, KubeApi api, String namespace, List<Kind> kinds, Clock clock) {
        this.view = new KubeCluster(api, namespace, kinds, clock);
        this.simulated = new SimulatedControllers(view, Duration.ZERO);
        this.running = !cluster.runsPods();
        LOG.info("pods made and run by {}", running ? "the simulated controllers" : "the cluster's own controllers and kubelet");
        if (running) executor.scheduleWithFixedDelay(() -> {
            try {
                simulated.settle(view.now());
            } catch (RuntimeException e) {
                // A write that raced the operator (409) is simply tried again at the next tick.
                LOG.debug("simulated controllers: {}", e.getMessage());
            }
        }, 0, TICK.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether the simulated controllers run (the cluster runs no pods of its own). */
    public boolean running() { return running; }

    public SimulatedControllers simulated() { return simulated; }

    public KubeCluster view() { return view; }

    @Override
    public void close() throws InterruptedException {
        executor.shutdownNow();
        executor.awaitTermination(10, TimeUnit.SECONDS);
    }
}
