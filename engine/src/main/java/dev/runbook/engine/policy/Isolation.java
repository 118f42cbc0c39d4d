package dev.runbook.engine.policy;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Where a bundle's code runs, by the channel it came through (the policy's {@code isolation} section,
 * docs/security.md, "The process boundary"): a bundle baked into the operator's image ({@code --bundle
 * DIR}) runs in the operator's process by default; one shipped in a ConfigMap is compiled, vetted and
 * decides in a worker process that holds no credentials. The trust follows the channel, and the
 * administrator sets it.
 *
 * @param images        how bundles from directories run
 * @param configMaps    how bundles from ConfigMaps run
 * @param worker        how a worker process is started
 * @param socket        for {@link Worker#SOCKET}: the Unix socket of the worker host (the pod's second container)
 * @param workerHeapMiB the heap of one worker JVM (-Xmx)
 * @param workerCpu     the CPU time one worker process may use in its life (RLIMIT_CPU), after which it is
 *                      killed and started again
 */
public record Isolation(Trust images, Trust configMaps, Worker worker, Path socket, long workerHeapMiB, Duration workerCpu) {
    /** Where the rules of a channel's bundles run. */
    public enum Trust {
        /** In the operator's process: as fast as it gets, as trusted as the operator. */
        IN_PROCESS("in-process"),
        /** In a worker process without credentials, bounded from outside. */
        ISOLATED("isolated");

        public final String word;

        Trust(String word) { this.word = word; }
    }

    /** How a worker process is started. */
    public enum Worker {
        /** A child JVM in its own user, mount, network and pid namespaces (bubblewrap), the default. */
        SANDBOX("sandbox"),
        /** A child JVM without namespaces: an empty environment, bounded time and memory, but the operator's files in view. */
        PROCESS("process"),
        /** A JVM the worker host in the pod's second container starts, reached over a Unix socket. */
        SOCKET("unix:PATH");

        public final String word;

        Worker(String word) { this.word = word; }
    }

    public static final String KEY = "isolation";
    public static final String IMAGES_KEY = "images";
    public static final String CONFIG_MAPS_KEY = "configMaps";
    public static final String WORKER_KEY = "worker";
    public static final String HEAP_KEY = "workerHeapMiB";
    public static final String CPU_KEY = "workerCpu";
    public static final long DEFAULT_HEAP_MIB = 512;
    public static final Duration DEFAULT_WORKER_CPU = Duration.ofHours(1);
    private static final String SOCKET_PREFIX = "unix:";

    public static final Isolation DEFAULT = new Isolation(Trust.IN_PROCESS, Trust.ISOLATED, Worker.SANDBOX, null,
            DEFAULT_HEAP_MIB, DEFAULT_WORKER_CPU);

    public Isolation {
        if (worker == Worker.SOCKET && socket == null) throw new IllegalArgumentException("a socket worker needs the socket's path");
        if (workerHeapMiB <= 0) throw new IllegalArgumentException(HEAP_KEY + " must be positive");
        if (workerCpu.isNegative() || workerCpu.isZero()) throw new IllegalArgumentException(CPU_KEY + " must be positive");
    }

    /** How a bundle from a ConfigMap ({@code true}) or from a directory runs. */
    public Trust trustOf(boolean fromConfigMap) { return fromConfigMap ? configMaps : images; }

    /** The value of {@code isolation.worker} as the policy file writes it. */
    public String workerWord() { return worker == Worker.SOCKET ? SOCKET_PREFIX + socket : worker.word; }

    /** Reads a {@link Trust} word. */
    static Trust trust(String text) {
        for (Trust trust : Trust.values()) if (trust.word.equals(text.strip())) return trust;
        throw new IllegalArgumentException("'" + text + "' is neither in-process nor isolated");
    }

    /** This isolation with {@code isolation.worker} read from {@code text}: sandbox, process, or unix:/path/of/the/socket. */
    Isolation withWorker(String text) {
        String word = text.strip();
        if (word.startsWith(SOCKET_PREFIX) && word.length() > SOCKET_PREFIX.length()
                && word.charAt(SOCKET_PREFIX.length()) == '/') {
            return new Isolation(images, configMaps, Worker.SOCKET, Path.of(word.substring(SOCKET_PREFIX.length())),
                    workerHeapMiB, workerCpu);
        }
        for (Worker kind : Worker.values()) {
            if (kind != Worker.SOCKET && kind.word.equals(word)) {
                return new Isolation(images, configMaps, kind, null, workerHeapMiB, workerCpu);
            }
        }
        throw new IllegalArgumentException("'" + text + "' is not sandbox, process or unix:/path/of/the/worker-host.sock");
    }
}
