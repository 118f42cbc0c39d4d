package dev.runbook.postgres.vocabulary;

import dev.runbook.rules.fact.Resource;

import java.util.regex.Pattern;

/**
 * For runbooks that back up to, or restore from, an S3-compatible object store written as
 * {@code {destinationPath: s3://BUCKET/PATH, endpointURL: URL, s3Credentials: {secretName: NAME}}} at
 * some path of the resource (e.g. {@code spec.backup.objectStore}). Every function returns a value or
 * a problem to report, naming the field at fault and the fix; none throws.
 */
public final class ObjectStores {

    private static final Pattern DESTINATION = Pattern.compile("s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](/[A-Za-z0-9._~-]+)*/?");
    private static final Pattern ENDPOINT = Pattern.compile(
            "https?://([A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?)*|\\[[0-9A-Fa-f:.]+\\])(:[0-9]{1,5})?/?");
    private static final Pattern SECRET = Pattern.compile("[a-z0-9]([-.a-z0-9]*[a-z0-9])?");

    // What the tools (barman-cloud, boto3) say when the store refuses the keys, when the bucket is
    // missing, and when the endpoint cannot be reached; matched case-insensitively.
    private static final Pattern CREDENTIALS = Pattern.compile(
            "(?i).*(credential|InvalidAccessKeyId|SignatureDoesNotMatch|AccessDenied|access denied|Forbidden|\\b403\\b).*", Pattern.DOTALL);
    private static final Pattern BUCKET = Pattern.compile("(?i).*(NoSuchBucket|bucket.*(not exist|not found)).*", Pattern.DOTALL);
    private static final Pattern ENDPOINT_DOWN = Pattern.compile(
            "(?i).*(connect|refused|unreachable|timed out|timeout|name or service not known|resolve|getaddrinfo|no route).*", Pattern.DOTALL);

    private static final Pattern BACKUP_MISSING = Pattern.compile(
            "(?i).*(backup\\b.*\\b(not found|does not exist|no such)|no (complete )?backups?\\b.*\\b(found|the store has)).*", Pattern.DOTALL);
    private static final Pattern TARGET = Pattern.compile("(?i).*(target time|recovery_target|targetTime).*", Pattern.DOTALL);

    private ObjectStores() {
    }

    /**
     * What makes the object store at {@code field} unusable, or null when it can be used: it must be
     * set, its {@code destinationPath} an {@code s3://BUCKET/PATH}, its {@code endpointURL}, when set,
     * an http(s) URL, and its {@code s3Credentials.secretName} a Secret's name.
     */
    public static String problem(Resource resource, String field) {
        if (!(resource.get(field) instanceof java.util.Map)) {
            return field + " is not set: set " + field + ".destinationPath (s3://BUCKET/PATH) and "
                    + field + ".s3Credentials.secretName (a Secret with the keys ACCESS_KEY_ID and ACCESS_SECRET_KEY)";
        }
        String destination = resource.str(field + ".destinationPath", "");
        if (!DESTINATION.matcher(destination).matches()) {
            return field + ".destinationPath " + (destination.isEmpty() ? "is not set" : "'" + destination + "' is not an s3://BUCKET/PATH")
                    + ": write e.g. s3://backups/postgres";
        }
        String endpoint = resource.str(field + ".endpointURL", "");
        if (!endpoint.isEmpty() && !ENDPOINT.matcher(endpoint).matches()) {
            return field + ".endpointURL '" + endpoint + "' is not an http(s) URL of a host and port: write e.g. http://minio.storage.svc:9000,"
                    + " or leave it out for AWS S3";
        }
        String secret = resource.str(field + ".s3Credentials.secretName", "");
        if (!SECRET.matcher(secret).matches()) {
            return field + ".s3Credentials.secretName " + (secret.isEmpty() ? "is not set" : "'" + secret + "' is not a Secret's name")
                    + ": name the Secret that holds the keys ACCESS_KEY_ID and ACCESS_SECRET_KEY";
        }
        return null;
    }

    /** The store in a few words, for messages: {@code s3://backups/pg at http://127.0.0.1:8333}. */
    public static String describe(Resource resource, String field) {
        String endpoint = resource.str(field + ".endpointURL", "");
        return resource.str(field + ".destinationPath", "") + (endpoint.isEmpty() ? " (AWS S3)" : " at " + endpoint);
    }

    /**
     * Which field of the store at {@code field} a tool's error message points to, and the fix: the
     * Secret when the store refused the keys or found none, the destinationPath when the bucket does
     * not exist, the endpointURL when it could not be reached; otherwise the store as a whole.
     */
    public static String hint(Resource resource, String field, String message) {
        String text = message == null ? "" : message;
        if (CREDENTIALS.matcher(text).matches()) {
            String secret = resource.str(field + ".s3Credentials.secretName", "");
            return "check " + field + ".s3Credentials.secretName: the Secret " + secret + " must exist in the namespace "
                    + resource.getNamespace() + " with the keys ACCESS_KEY_ID and ACCESS_SECRET_KEY the store accepts"
                    + " (kubectl create secret generic " + secret + " --from-literal=ACCESS_KEY_ID=... --from-literal=ACCESS_SECRET_KEY=...);"
                    + " instances read it when their container starts";
        }
        if (BUCKET.matcher(text).matches()) {
            return "check " + field + ".destinationPath (" + resource.str(field + ".destinationPath", "") + "): its bucket must exist in the store";
        }
        if (ENDPOINT_DOWN.matcher(text).matches()) {
            String endpoint = resource.str(field + ".endpointURL", "");
            return "check " + field + ".endpointURL (" + (endpoint.isEmpty() ? "not set: AWS S3" : endpoint)
                    + "): the store must be reachable from the pods";
        }
        return "check " + field + " (" + describe(resource, field) + ", Secret "
                + resource.str(field + ".s3Credentials.secretName", "") + ")";
    }

    /**
     * Which field of a recovery at {@code field} (with {@code backup}, {@code targetTime} and
     * {@code source.objectStore}) a restore's error message points to, and the fix: the target time
     * when no backup ended before it, the backup when the store has no backup of that name (or the
     * source folder when it has none at all),
     * otherwise the source store as {@link #hint} says.
     */
    public static String restoreHint(Resource resource, String field, String message) {
        String text = message == null ? "" : message;
        if (TARGET.matcher(text).matches()) {
            return "check " + field + ".targetTime (" + resource.str(field + ".targetTime", "not set")
                    + "): it must lie after the end of a backup the store holds and within the archived WAL";
        }
        if (BACKUP_MISSING.matcher(text).matches()) {
            return resource.has(field + ".backup")
                    ? "check " + field + ".backup ('" + resource.str(field + ".backup") + "'): name a backup the store holds,"
                    + " or leave it out to restore the newest"
                    : "check " + field + ".source (" + describe(resource, field + ".source.objectStore") + ", folder "
                    + resource.str(field + ".source.serverName", resource.getName()) + "): it holds no backup to restore;"
                    + " set source.serverName to the original cluster's name";
        }
        return hint(resource, field + ".source.objectStore", text);
    }

    /**
     * Whole days, rounded up, of a number of seconds, as the store's retention takes them:
     * {@code 30d} for 2592000, {@code 1d} for 43200 (and for 0: the store keeps at least a day); empty when {@code seconds} is negative (no limit).
     */
    public static String days(long seconds) {
        return seconds < 0 ? "" : Math.max(1, (seconds + 86399) / 86400) + "d";
    }
}
