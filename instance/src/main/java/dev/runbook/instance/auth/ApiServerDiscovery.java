package dev.runbook.instance.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The cluster's OIDC discovery document and signing keys, read from the API server with the instance's own credentials. */
public record ApiServerDiscovery(KubernetesClient client) implements ServiceAccountTokens.Discovery {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public JsonNode issuer() {
        return read("/.well-known/openid-configuration");
    }

    @Override
    public JsonNode keys() {
        return read("/openid/v1/jwks");
    }

    private JsonNode read(String path) {
        String body = client.raw(path);
        if (body == null) {
            throw new IllegalStateException("the API server answered nothing for " + path);
        }
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException("the API server's " + path + " is not JSON", e);
        }
    }
}
