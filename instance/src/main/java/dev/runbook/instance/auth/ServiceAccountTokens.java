package dev.runbook.instance.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.RSAPublicKeySpec;
import java.time.Clock;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Verifies a Kubernetes ServiceAccount token (a JWT) the way the API server's own OIDC discovery
 * describes it, without asking the API server about each token: the signature against the
 * cluster's signing keys ({@code /openid/v1/jwks}, read once and again when a token names a key not
 * yet known), the issuer, the audience, and the validity window. What it returns is who the caller
 * is ({@code system:serviceaccount:NAMESPACE:NAME}); whether that caller may call is
 * {@link Callers}'s question.
 *
 * <p>Reading the keys needs no grant beyond the default one: Kubernetes binds
 * {@code system:service-account-issuer-discovery} to every ServiceAccount.
 */
public final class ServiceAccountTokens {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long SKEW_SECONDS = 30;
    /** Keys are read again for an unknown key at most this often: made-up key ids cannot make each request a read. */
    private static final long REFRESH_SECONDS = 30;

    /** The cluster's discovery document and key set, as JSON (what the API server serves). */
    public interface Discovery {
        JsonNode issuer();

        JsonNode keys();
    }

    private final Discovery discovery;
    private final String audience;
    private final Clock clock;
    private final Map<String, PublicKey> keys = new ConcurrentHashMap<>();
    private volatile String issuer;
    private long refreshedAt = Long.MIN_VALUE;

    public ServiceAccountTokens(Discovery discovery, String audience, Clock clock) {
        this.discovery = discovery;
        this.audience = audience;
        this.clock = clock;
    }

    /** Who the token says the caller is, or why it is not to be believed. */
    public sealed interface Verdict permits Caller, Rejected {
    }

    public record Caller(String subject) implements Verdict {
    }

    public record Rejected(String why) implements Verdict {
    }

    public Verdict verify(String token) {
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3) {
            return new Rejected("not a JWT");
        }
        JsonNode header;
        JsonNode claims;
        try {
            header = JSON.readTree(decode(parts[0]));
            claims = JSON.readTree(decode(parts[1]));
        } catch (IllegalArgumentException | java.io.IOException e) {
            return new Rejected("not a JWT: " + e.getMessage());
        }
        if (!"RS256".equals(header.path("alg").asText())) {
            return new Rejected("signed with '" + header.path("alg").asText() + "', not RS256");
        }
        Optional<PublicKey> key = key(header.path("kid").asText());
        if (key.isEmpty()) {
            return new Rejected("signed with a key the cluster does not publish");
        }
        try {
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initVerify(key.get());
            rsa.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
            if (!rsa.verify(Base64.getUrlDecoder().decode(parts[2]))) {
                return new Rejected("the signature does not match");
            }
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return new Rejected("the signature cannot be checked: " + e.getMessage());
        }
        if (!issuer().equals(claims.path("iss").asText())) {
            return new Rejected("issued by '" + claims.path("iss").asText() + "', not by this cluster");
        }
        JsonNode aud = claims.path("aud");
        boolean forUs = aud.isArray() ? java.util.stream.StreamSupport.stream(aud.spliterator(), false).anyMatch(a -> audience.equals(a.asText()))
                : audience.equals(aud.asText());
        if (!forUs) {
            return new Rejected("meant for " + aud + ", not for the audience " + audience);
        }
        long now = clock.instant().getEpochSecond();
        if (!claims.has("exp") || claims.path("exp").asLong() + SKEW_SECONDS < now) {
            return new Rejected("expired");
        }
        if (claims.has("nbf") && claims.path("nbf").asLong() - SKEW_SECONDS > now) {
            return new Rejected("not valid yet");
        }
        String subject = claims.path("sub").asText();
        return subject.isEmpty() ? new Rejected("names no subject") : new Caller(subject);
    }

    private String issuer() {
        String known = issuer;
        if (known == null) {
            known = discovery.issuer().path("issuer").asText();
            issuer = known;
        }
        return known;
    }

    private Optional<PublicKey> key(String kid) {
        PublicKey known = keys.get(kid);
        if (known == null && refresh(discovery::keys)) {
            known = keys.get(kid);
        }
        return Optional.ofNullable(known);
    }

    private synchronized boolean refresh(Supplier<JsonNode> read) {
        long now = clock.instant().getEpochSecond();
        if (refreshedAt != Long.MIN_VALUE && now - refreshedAt < REFRESH_SECONDS) {
            return false;
        }
        refreshedAt = now;
        for (JsonNode jwk : read.get().path("keys")) {
            if (!"RSA".equals(jwk.path("kty").asText())) {
                continue;
            }
            try {
                PublicKey key = KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(
                        new BigInteger(1, Base64.getUrlDecoder().decode(jwk.path("n").asText())),
                        new BigInteger(1, Base64.getUrlDecoder().decode(jwk.path("e").asText()))));
                keys.put(jwk.path("kid").asText(), key);
            } catch (GeneralSecurityException | IllegalArgumentException e) {
                // a key this verifier cannot read verifies nothing
            }
        }
        return true;
    }

    private static byte[] decode(String part) {
        return Base64.getUrlDecoder().decode(part);
    }
}
