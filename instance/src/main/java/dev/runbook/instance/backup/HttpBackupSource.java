package dev.runbook.instance.backup;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runbook.instance.address.Address;
import dev.runbook.instance.address.Addresses;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The source instance's manager, over its HTTP port: {@code POST /backup {"name": ...}} (see {@link BackupEndpoint}). */
public final class HttpBackupSource implements BackupJob.Source {
    private static final Duration TIMEOUT = Duration.ofHours(6);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Addresses addresses;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    public HttpBackupSource(Addresses addresses) {
        this.addresses = addresses;
    }

    @Override
    public BackupInfo backup(String pod, String name) {
        Address address = addresses.httpOf(pod);
        URI uri = URI.create("http://" + address.host() + ":" + address.port() + "/backup");
        String body = JSON.createObjectNode().put("name", name).toString();
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                String error = JSON.readTree(response.body()).path("error").asText(response.body());
                throw new IllegalStateException(pod + " answered " + response.statusCode() + ": " + error);
            }
            return BackupEndpoint.fromJson(response.body());
        } catch (IOException e) {
            throw new IllegalStateException("cannot reach the instance manager of " + pod + " at " + uri + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + pod + " took the backup");
        }
    }
}
