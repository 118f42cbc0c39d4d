package dev.runbook.engine.template;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The SHA-256 of a render cache key's bytes, kept instead of the bytes: 32 bytes where a rendered text
 * is 2–3 KB and a primary's {@link ValueBytes} 3–4 KB: 4.4 KB less per primary on the postgres-cluster
 * bundle (RenderCacheFootprint: 41.8 against 37.4 KB, docs/performance.md#the-operators-memory). Two
 * inputs with one digest would be taken for one:
 * nobody has found two byte strings with the same SHA-256, and finding one on purpose is what the
 * function is built to make infeasible, so a hit is what rendering would give, as with the bytes.
 */
final class Digest {
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    });

    private final long a;
    private final long b;
    private final long c;
    private final long d;

    private Digest(byte[] sha256) {
        ByteBuffer bytes = ByteBuffer.wrap(sha256);
        this.a = bytes.getLong();
        this.b = bytes.getLong();
        this.c = bytes.getLong();
        this.d = bytes.getLong();
    }

    /** The digest of {@code bytes}; null for null. */
    static Digest of(byte[] bytes) {
        return bytes == null ? null : new Digest(SHA_256.get().digest(bytes));
    }

    /** The digest of {@code text}'s UTF-8 bytes. */
    static Digest of(String text) {
        return new Digest(SHA_256.get().digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public boolean equals(Object other) {
        return other == this || other instanceof Digest o && a == o.a && b == o.b && c == o.c && d == o.d;
    }

    @Override
    public int hashCode() {
        return (int) a; // a SHA-256's bits are evenly spread: any 32 of them hash as well as all 256
    }
}
