package dev.runbook.instance.backup;

import dev.runbook.postgres.contract.PostgresContract;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runbook.instance.address.Address;
import dev.runbook.instance.address.Addresses;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** The source instance's manager, over its HTTP port: {@code POST /backup {"name": ...}} (see {@link BackupEndpoint}). */
public final class HttpBackupSource implements BackupJob.Source {
    private static final Duration TIMEOUT = Duration.ofHours(6);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Addresses addresses;
    private final Path tokenFile;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /**
     * {@code tokenFile}: the Job pod's projected ServiceAccount token for the instances' audience
     * (read for each request: the kubelet renews it in place), sent as the bearer of the request.
     */
    public HttpBackupSource(Addresses addresses, Path tokenFile) {
        this.addresses = addresses;
        this.tokenFile = tokenFile;
    }

    @Override
    public BackupInfo backup(String pod, String name) {
        Address address = addresses.httpOf(pod);
        URI uri = URI.create("http://" + address.host() + ":" + address.port() + PostgresContract.BACKUP_PATH);
        String body = JSON.createObjectNode().put("name", name).toString();
        try {
            String token = Files.readString(tokenFile).strip();
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).header("Content-Type", "application/json")
                    .header("Authorization", "Bearer " + token)
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                String error = JSON.readTree(response.body()).path("error").asText(response.body());
                throw new IllegalStateException(pod + " answered " + response.statusCode() + ": " + error);
            }
            return BackupEndpoint.fromJson(response.body());
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalStateException("no ServiceAccount token at " + tokenFile + " to show " + pod + ": the Job's pod projects one"
                    + " (templates/backup-job.yaml, volume caller-token)", e);
        } catch (IOException e) {
            throw new IllegalStateException("cannot reach the instance manager of " + pod + " at " + uri + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + pod + " took the backup");
        }
    }
}
