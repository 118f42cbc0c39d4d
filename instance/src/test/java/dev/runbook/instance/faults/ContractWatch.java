package dev.runbook.instance.faults;

import dev.runbook.postgres.contract.PostgresContract;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Watches what must hold at every moment, not only at the end of a run:
 * <ul>
 *   <li>the contract (docs/runbooks/postgres-cluster.md): a fenced pod is relabelled replica only in
 *       a version of the pod that reports {@code replica} (every update of the pods is seen, through a
 *       watch);</li>
 *   <li>never two servers out of recovery: each server is asked {@code pg_is_in_recovery()} four times
 *       a second, and two that answer false within half a second of each other are two primaries.</li>
 * </ul>
 * What broke is kept as one line each, read and cleared by the run that checks it.
 */
final class ContractWatch implements AutoCloseable {
    private static final String ROLE = PostgresContract.ROLE_LABEL;
    private static final String REPORTED = PostgresContract.REPORTED_ROLE;
    private static final long SAMPLE_MS = 250;
    private static final long TOGETHER_NANOS = 500_000_000L;

    private final List<String> broken = new CopyOnWriteArrayList<>();
    private final Map<String, String> lastRole = new ConcurrentHashMap<>();
    private final Map<String, Long> outOfRecoverySince = new ConcurrentHashMap<>();
    private final Map<String, Connection> connections = new ConcurrentHashMap<>();
    private final ScheduledExecutorService sampler;
    private final Watch watch;
    private final Map<String, Integer> ports;
    private final String password;

    ContractWatch(KubernetesClient client, String namespace, Map<String, Integer> ports, String password) {
        this.ports = ports;
        this.password = password;
        this.watch = client.pods().inNamespace(namespace).withLabel(PostgresContract.CLUSTER_LABEL, "pg").watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                relabelled(pod);
            }

            @Override
            public void onClose(WatcherException cause) {
                broken.add("the pod watch closed: " + cause.getMessage());
            }
        });
        this.sampler = Executors.newScheduledThreadPool(ports.size(), r -> {
            Thread t = new Thread(r, "contract-watch");
            t.setDaemon(true);
            return t;
        });
    }

    /** One sampler per instance, so that a hung server delays only its own samples. */
    void start() {
        ports.forEach((instance, port) ->
                sampler.scheduleWithFixedDelay(() -> sample(instance, port), 0, SAMPLE_MS, TimeUnit.MILLISECONDS));
    }

    /** What broke since the last call, and forget it. */
    List<String> drain() {
        List<String> out = List.copyOf(broken);
        broken.removeAll(out);
        return out;
    }

    private void relabelled(Pod pod) {
        String name = pod.getMetadata().getName();
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        Map<String, String> annotations = pod.getMetadata().getAnnotations() == null ? Map.of() : pod.getMetadata().getAnnotations();
        String role = labels.getOrDefault(ROLE, "");
        String before = lastRole.put(name, role);
        String reported = annotations.getOrDefault(REPORTED, "");
        if ("fenced".equals(before) && "replica".equals(role) && !"replica".equals(reported)) {
            broken.add(name + " was relabelled replica from fenced while it reported '" + reported + "', not replica");
        }
    }

    private void sample(String instance, int port) {
        try {
            Connection c = connections.get(instance);
            if (c == null) {
                c = Ledger.connect(port, password);
                c.setNetworkTimeout(Runnable::run, 1000);
                connections.put(instance, c);
            }
            boolean primary;
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("select not pg_is_in_recovery()")) {
                r.next();
                primary = r.getBoolean(1);
            }
            long now = System.nanoTime();
            if (!primary) {
                outOfRecoverySince.remove(instance);
                return;
            }
            outOfRecoverySince.put(instance, now);
            outOfRecoverySince.forEach((other, at) -> {
                String line = "two servers out of recovery at once: " + instance + " and " + other;
                if (!other.equals(instance) && now - at < TOGETHER_NANOS && !broken.contains(line)) {
                    broken.add(line);
                }
            });
        } catch (SQLException | RuntimeException e) {
            Connection c = connections.remove(instance);
            outOfRecoverySince.remove(instance);
            if (c != null) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // gone already
                }
            }
        }
    }

    @Override
    public void close() {
        watch.close();
        sampler.shutdownNow();
        connections.values().forEach(c -> {
            try {
                c.close();
            } catch (SQLException ignored) {
                // gone already
            }
        });
    }
}
