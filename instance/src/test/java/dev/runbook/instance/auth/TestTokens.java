package dev.runbook.instance.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;

/** A stand-in cluster for the token tests: its issuer, its signing key published as the API server publishes it, and tokens it signs. */
final class TestTokens implements ServiceAccountTokens.Discovery {
    static final String ISSUER = "https://kubernetes.default.svc.cluster.local";
    private static final ObjectMapper JSON = new ObjectMapper();

    final KeyPair key = rsa();
    final AtomicInteger keyReads = new AtomicInteger();
    private final Instant now;

    TestTokens(Instant now) {
        this.now = now;
    }

    @Override
    public JsonNode issuer() {
        return JSON.createObjectNode().put("issuer", ISSUER);
    }

    @Override
    public JsonNode keys() {
        keyReads.incrementAndGet();
        RSAPublicKey pub = (RSAPublicKey) key.getPublic();
        ObjectNode jwks = JSON.createObjectNode();
        jwks.putArray("keys").addObject().put("kty", "RSA").put("alg", "RS256").put("kid", "k1")
                .put("n", b64(withoutSignByte(pub.getModulus().toByteArray()))).put("e", b64(pub.getPublicExponent().toByteArray()));
        return jwks;
    }

    ObjectNode claims(String subject, String audience, long expiresIn) {
        ObjectNode claims = JSON.createObjectNode().put("iss", ISSUER).put("sub", subject)
                .put("exp", now.getEpochSecond() + expiresIn).put("nbf", now.getEpochSecond() - 600);
        claims.putArray("aud").add(audience);
        return claims;
    }

    /** A token for {@code subject} and {@code audience}, valid for ten minutes, signed with this cluster's key. */
    String token(String subject, String audience) {
        return sign(key, "k1", claims(subject, audience, 600));
    }

    static String sign(KeyPair with, String kid, ObjectNode claims) {
        try {
            String signed = b64(JSON.createObjectNode().put("alg", "RS256").put("kid", kid).toString().getBytes(StandardCharsets.UTF_8)) + "."
                    + b64(claims.toString().getBytes(StandardCharsets.UTF_8));
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initSign(with.getPrivate());
            rsa.update(signed.getBytes(StandardCharsets.US_ASCII));
            return signed + "." + b64(rsa.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String unsigned(ObjectNode claims) {
        return b64(JSON.createObjectNode().put("alg", "none").toString().getBytes(StandardCharsets.UTF_8)) + "."
                + b64(claims.toString().getBytes(StandardCharsets.UTF_8)) + ".";
    }

    static KeyPair rsa() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] withoutSignByte(byte[] twosComplement) {
        return twosComplement.length > 1 && twosComplement[0] == 0 ? Arrays.copyOfRange(twosComplement, 1, twosComplement.length) : twosComplement;
    }

    private static String b64(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
