package dev.runbook.instance.loopback;

import dev.runbook.postgres.contract.PostgresContract;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.ServiceAccountTokenProjection;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The loopback kubelet's second job: the pods of backup Jobs (label {@code postgres.runbook.dev/backup-of}),
 * which kwok leaves Running in the drills' namespaces (testenv/up). Each runs as a process, the
 * container's command ({@code instance-manager backup}) with the pod's environment; when it exits the
 * pod's phase becomes Succeeded (exit 0) or Failed, with the container's exit code, and the real Job
 * controller completes or fails the Job from that.
 */
final class BackupJobPods implements AutoCloseable {
    static final String BACKUP_OF = PostgresContract.BACKUP_OF_LABEL;

    private final KubernetesClient client;
    private final String namespace;
    private final PodEnvironment environment;
    private final Supplier<List<String>> javaCommand;
    private final Path base;
    private final Consumer<String> note;
    private final Map<String, Process> running = new ConcurrentHashMap<>();
    private final Set<String> finished = ConcurrentHashMap.newKeySet();

    BackupJobPods(KubernetesClient client, String namespace, PodEnvironment environment, Supplier<List<String>> javaCommand, Path base,
                  Consumer<String> note) {
        this.client = client;
        this.namespace = namespace;
        this.environment = environment;
        this.javaCommand = javaCommand;
        this.base = base;
        this.note = note;
    }

    Path logOf(String pod) {
        return base.resolve(pod + ".log");
    }

    void tick(Path addressFile, Path kubeconfig) {
        for (Pod pod : client.pods().inNamespace(namespace).withLabel(BACKUP_OF).list().getItems()) {
            String uid = pod.getMetadata().getUid();
            boolean runningPhase = pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase());
            if (pod.getMetadata().getDeletionTimestamp() != null || finished.contains(uid)) {
                continue;
            }
            Process process = running.get(uid);
            if (process == null && runningPhase) {
                running.put(uid, launch(pod, addressFile, kubeconfig));
            } else if (process != null && !process.isAlive()) {
                if (setFinished(pod, process.exitValue())) {
                    running.remove(uid);
                    finished.add(uid);
                }
            }
        }
    }

    private Process launch(Pod pod, Path addressFile, Path kubeconfig) {
        String name = pod.getMetadata().getName();
        Map<String, String> env = environment.of(pod, pod.getSpec().getContainers().get(0));
        env.put("RUNBOOK_INSTANCE_ADDRESSES", addressFile.toString());
        env.put("KUBECONFIG", kubeconfig.toString());
        projectTokens(pod, env);
        List<String> command = new ArrayList<>(javaCommand.get());
        command.add("backup");
        try {
            Files.writeString(logOf(name), "---- " + Instant.now() + " loopback-kubelet: running the backup Job pod " + name + "\n",
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logOf(name).toFile()));
            builder.environment().putAll(env);
            note(name + " backup Job pod started");
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the backup Job pod " + name, e);
        }
    }

    /**
     * A kubelet mounts a projected ServiceAccount token where the pod asks: this one asks the API
     * server for it (TokenRequest, for the pod's ServiceAccount, with the volume's audience and
     * lifetime), writes it under its own directory, and points the container's variables that name a
     * path under the mount at the file instead.
     */
    private void projectTokens(Pod pod, Map<String, String> env) {
        Container container = pod.getSpec().getContainers().get(0);
        for (Volume volume : pod.getSpec().getVolumes() == null ? List.<Volume>of() : pod.getSpec().getVolumes()) {
            if (volume.getProjected() == null) {
                continue;
            }
            for (VolumeProjection source : volume.getProjected().getSources()) {
                ServiceAccountTokenProjection projection = source.getServiceAccountToken();
                if (projection == null) {
                    continue;
                }
                String token = client.serviceAccounts().inNamespace(namespace).withName(pod.getSpec().getServiceAccountName())
                        .tokenRequest(new TokenRequestBuilder().withNewSpec().withAudiences(projection.getAudience())
                                .withExpirationSeconds(projection.getExpirationSeconds()).endSpec().build())
                        .getStatus().getToken();
                Path dir = base.resolve(pod.getMetadata().getName() + "-" + volume.getName());
                try {
                    Files.createDirectories(dir);
                    Path file = dir.resolve(projection.getPath());
                    Files.writeString(file, token);
                    // The test tier runs the Job as another user than this process: the token is for it to read.
                    Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot write the projected token of " + pod.getMetadata().getName(), e);
                }
                for (VolumeMount mount : container.getVolumeMounts()) {
                    if (mount.getName().equals(volume.getName())) {
                        env.replaceAll((k, v) -> v.startsWith(mount.getMountPath() + "/") ? dir + v.substring(mount.getMountPath().length()) : v);
                    }
                }
            }
        }
    }

    /** Phase Succeeded or Failed, the container terminated with the exit code; false when the write must be tried again. */
    private boolean setFinished(Pod pod, int exitCode) {
        String phase = exitCode == 0 ? "Succeeded" : "Failed";
        Pod fresh = client.pods().inNamespace(namespace).withName(pod.getMetadata().getName()).get();
        if (fresh == null) {
            return true;
        }
        String now = Instant.now().toString();
        fresh.getStatus().setPhase(phase);
        List<ContainerStatus> statuses = new ArrayList<>();
        fresh.getSpec().getContainers().forEach(c -> statuses.add(new ContainerStatusBuilder().withName(c.getName()).withImage(c.getImage())
                .withReady(false).withRestartCount(0).withStarted(false)
                .withState(new ContainerStateBuilder().withNewTerminated().withExitCode(exitCode)
                        .withReason(exitCode == 0 ? "Completed" : "Error").withStartedAt(now).withFinishedAt(now).endTerminated().build())
                .build()));
        fresh.getStatus().setContainerStatuses(statuses);
        for (PodCondition c : fresh.getStatus().getConditions()) {
            if ("Ready".equals(c.getType()) || "ContainersReady".equals(c.getType())) {
                c.setStatus("False");
                c.setLastTransitionTime(now);
            }
        }
        try {
            client.pods().inNamespace(namespace).resource(fresh).updateStatus();
            note(pod.getMetadata().getName() + " backup Job pod " + phase + " (exit " + exitCode + ")");
            return true;
        } catch (KubernetesClientException e) {
            note(pod.getMetadata().getName() + " phase " + phase + " not written (" + e.getCode() + "): " + e.getMessage());
            return false;
        }
    }

    private void note(String line) {
        note.accept(line);
    }

    @Override
    public void close() {
        running.values().forEach(Process::destroy);
        running.clear();
    }
}
