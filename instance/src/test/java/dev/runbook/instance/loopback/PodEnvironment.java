package dev.runbook.instance.loopback;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A container's environment as the kubelet resolves it: {@code envFrom} ConfigMaps first, then
 * {@code env} (values, fields of the pod, Secret keys; an optional key that is missing is left out).
 */
final class PodEnvironment {
    private final KubernetesClient client;
    private final String namespace;

    PodEnvironment(KubernetesClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    Map<String, String> of(Pod pod, Container container) {
        Map<String, String> env = new LinkedHashMap<>();
        for (EnvFromSource from : container.getEnvFrom() == null ? List.<EnvFromSource>of() : container.getEnvFrom()) {
            if (from.getConfigMapRef() != null) {
                ConfigMap map = client.configMaps().inNamespace(namespace).withName(from.getConfigMapRef().getName()).get();
                if (map == null && !Boolean.TRUE.equals(from.getConfigMapRef().getOptional())) {
                    throw new IllegalStateException("ConfigMap " + from.getConfigMapRef().getName() + " is missing (a kubelet would not start the container either)");
                }
                if (map != null && map.getData() != null) {
                    env.putAll(map.getData());
                }
            }
        }
        for (EnvVar var : container.getEnv() == null ? List.<EnvVar>of() : container.getEnv()) {
            String value = resolve(pod, var);
            if (value != null) {
                env.put(var.getName(), value);
            }
        }
        return env;
    }

    private String resolve(Pod pod, EnvVar var) {
        if (var.getValue() != null) {
            return var.getValue();
        }
        var from = var.getValueFrom();
        if (from != null && from.getFieldRef() != null) {
            return switch (from.getFieldRef().getFieldPath()) {
                case "metadata.name" -> pod.getMetadata().getName();
                case "metadata.namespace" -> pod.getMetadata().getNamespace();
                default -> throw new IllegalStateException("field " + from.getFieldRef().getFieldPath() + " is not resolved here");
            };
        }
        if (from != null && from.getSecretKeyRef() != null) {
            var ref = from.getSecretKeyRef();
            Secret secret = client.secrets().inNamespace(namespace).withName(ref.getName()).get();
            if (secret == null || secret.getData() == null || !secret.getData().containsKey(ref.getKey())) {
                if (Boolean.TRUE.equals(ref.getOptional())) {
                    return null;
                }
                throw new IllegalStateException("Secret " + ref.getName() + " has no key " + ref.getKey()
                        + " (a kubelet would not start the container either)");
            }
            return new String(Base64.getDecoder().decode(secret.getData().get(ref.getKey())), StandardCharsets.UTF_8);
        }
        return "";
    }
}
