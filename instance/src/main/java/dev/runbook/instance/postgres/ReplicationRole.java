package dev.runbook.instance.postgres;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The role the standbys replicate as, {@code streaming_replica}: it may log in and replicate, and
 * execute the four functions {@code pg_rewind} reads the source's files with, and nothing else; it
 * connects over TLS only ({@code pg_hba.conf}). Its password is its own, derived from the cluster's
 * superuser password and the cluster's name with HMAC-SHA-256, so that every instance computes the
 * same one from the Secret it already has and no second Secret is needed, while the replication
 * password, seen on the wire or in a standby's passfile, does not give the superuser's away.
 *
 * <p>The primary's instance manager keeps the role as it should be, and marks it with a comment that
 * fingerprints the password ({@link #mark}): a pass that finds another mark (a new cluster, a restored
 * one, a changed Secret) sets it again.
 */
public final class ReplicationRole {
    public static final String USER = "streaming_replica";
    /** The slots the primary keeps for the other instances; a LIKE pattern's start, its underscore escaped. */
    static final String SLOT_PREFIX = "runbook\\_";

    private ReplicationRole() {}

    public static String password(String superuserPassword, String qualifiedClusterName) {
        try {
            Mac hmac = Mac.getInstance("HmacSHA256");
            hmac.init(new SecretKeySpec(superuserPassword.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            byte[] derived = hmac.doFinal(("postgres.runbook.dev/replication " + qualifiedClusterName).getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(derived);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no HMAC-SHA-256 in this JVM", e);
        }
    }

    /** What the role's comment says once it is set up with this password: a fingerprint, not the password. */
    public static String mark(String password) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(("mark " + password).getBytes(StandardCharsets.UTF_8));
            return "runbook replication " + HexFormat.of().formatHex(digest, 0, 8);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no SHA-256 in this JVM", e);
        }
    }

    /** The functions pg_rewind runs on its source (a superuser could run them anyway). */
    static final String REWIND_GRANTS = "grant execute on function pg_catalog.pg_ls_dir(text, boolean, boolean),"
            + " pg_catalog.pg_stat_file(text, boolean), pg_catalog.pg_read_binary_file(text),"
            + " pg_catalog.pg_read_binary_file(text, bigint, bigint, boolean) to " + USER;

    /** The physical replication slot the primary keeps for an instance: {@code runbook_} and its pod name, as slot names allow. */
    public static String slotOf(String pod) {
        String name = "runbook_" + pod.replace('-', '_').replace('.', '_');
        if (name.length() <= 63) {
            return name;
        }
        try {
            // PostgreSQL's names stop at 63 bytes: a long one keeps its start and a hash of all of it.
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(pod.getBytes(StandardCharsets.UTF_8));
            return name.substring(0, 54) + "_" + HexFormat.of().formatHex(digest, 0, 4);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no SHA-256 in this JVM", e);
        }
    }
}
