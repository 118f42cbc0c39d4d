package dev.runbook.operator.admission;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The webhook's certificate, kept in a {@code kubernetes.io/tls} Secret in the operator's namespace so
 * that every replica serves the same one and a restart keeps it: made on first start (and renewed when
 * it would expire within {@link #RENEW_BEFORE}, or no longer names the webhook), then its CA is written
 * into the {@code caBundle} of the ValidatingWebhookConfiguration so the API server trusts it. Two
 * replicas starting at once race on creating the Secret; the loser reads the winner's.
 */
public final class WebhookTls {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookTls.class);
    /** A certificate this close to its end is replaced at start. */
    public static final Duration RENEW_BEFORE = Duration.ofDays(30);
    static final String CA_KEY = "ca.crt";

    private final KubernetesClient client;
    private final String namespace;
    private final String secretName;

    public WebhookTls(KubernetesClient client, String namespace, String secretName) {
        this.client = client;
        this.namespace = namespace;
        this.secretName = secretName;
    }

    /** The certificate in the Secret when it serves {@code names} well past {@code now}; else a new one, stored. */
    public ServingCertificate ensure(List<String> names, Instant now) {
        Secret existing = client.secrets().inNamespace(namespace).withName(secretName).get();
        ServingCertificate current = existing == null ? null : read(existing);
        if (current != null && current.covers(names, now.plus(RENEW_BEFORE))) return current;
        ServingCertificate fresh = ServingCertificate.generate(names, now);
        Secret secret = new SecretBuilder()
                .withNewMetadata().withName(secretName).withNamespace(namespace)
                    .addToLabels("app.kubernetes.io/name", "runbook-operator").endMetadata()
                .withType("kubernetes.io/tls")
                .withData(Map.of("tls.crt", base64(fresh.certificatePem()), "tls.key", base64(fresh.privateKeyPem()),
                        CA_KEY, base64(fresh.caPem())))
                .build();
        try {
            if (existing == null) {
                client.secrets().inNamespace(namespace).resource(secret).create();
            } else {
                secret.getMetadata().setResourceVersion(existing.getMetadata().getResourceVersion());
                client.secrets().inNamespace(namespace).resource(secret).update();
            }
            LOG.info("webhook certificate for {} written to secret {}/{}", names, namespace, secretName);
            return fresh;
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) throw e;
            // Another replica wrote one first: serve that one.
            Secret winner = client.secrets().inNamespace(namespace).withName(secretName).get();
            ServingCertificate theirs = winner == null ? null : read(winner);
            if (theirs == null) throw e;
            return theirs;
        }
    }

    /**
     * Writes the CA into every webhook of the configuration. A configuration that is not installed is
     * logged: the webhook then serves, but the API server does not call it.
     *
     * @return whether the configuration was there
     */
    public boolean trustIn(String configuration, ServingCertificate certificate) {
        return trust(client.admissionRegistration().v1().validatingWebhookConfigurations().withName(configuration),
                "ValidatingWebhookConfiguration", configuration,
                c -> c.getWebhooks().stream().map(ValidatingWebhook::getClientConfig).toList(),
                "bundle ConfigMaps are checked only when the operator loads them (install deploy/50-webhook.yaml)", certificate);
    }

    /**
     * As {@link #trustIn}, for the MutatingWebhookConfiguration of shards: a configuration that is not
     * installed is logged, and objects are then labelled by the sharder's passes alone.
     */
    public boolean trustInMutating(String configuration, ServingCertificate certificate) {
        return trust(client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(configuration),
                "MutatingWebhookConfiguration", configuration,
                c -> c.getWebhooks().stream().map(MutatingWebhook::getClientConfig).toList(),
                "new primaries and their pods are labelled with their shard by the sharder's next pass (install the chart "
                        + "with shards.enabled)", certificate);
    }

    /**
     * Writes the CA of {@code certificate} into every webhook of a configuration that does not name it yet;
     * false when the configuration is not installed (logged with {@code whenMissing}).
     */
    private <C> boolean trust(Resource<C> resource, String kindName, String configuration,
                              Function<C, List<WebhookClientConfig>> clientConfigs, String whenMissing,
                              ServingCertificate certificate) {
        C current = resource.get();
        if (current == null) {
            LOG.warn("no {} {}: {}", kindName, configuration, whenMissing);
            return false;
        }
        String bundle = base64(certificate.caPem());
        if (clientConfigs.apply(current).stream().anyMatch(c -> !bundle.equals(c.getCaBundle()))) {
            resource.edit(c -> {
                clientConfigs.apply(c).forEach(config -> config.setCaBundle(bundle));
                return c;
            });
            LOG.info("the webhook's CA written into {} {}", kindName, configuration);
        }
        return true;
    }

    private static ServingCertificate read(Secret secret) {
        Map<String, String> data = secret.getData();
        if (data == null || !data.containsKey("tls.crt") || !data.containsKey("tls.key") || !data.containsKey(CA_KEY)) return null;
        try {
            return new ServingCertificate(decode(data.get(CA_KEY)), decode(data.get("tls.crt")), decode(data.get("tls.key")));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String decode(String value) {
        return new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
    }
}
