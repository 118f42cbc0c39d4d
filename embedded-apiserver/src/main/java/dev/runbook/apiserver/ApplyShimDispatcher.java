package dev.runbook.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;

import java.util.Iterator;
import java.util.Map;

/**
 * The fabric8 mock API server in CRUD mode, with the writes it lacks or gets wrong made honest enough
 * for the operator to run against it: the API server of {@code runbook sandbox} and of the operator's
 * integration tests ({@link EmbeddedApiServer}). The operator itself never knows.
 *
 * <p>What it adds:
 * <ul>
 *   <li><b>Server-side apply</b> ({@code PATCH} with {@code application/apply-patch+yaml}, which the
 *       mock answers 415): creates the object when it is missing (as a {@code POST}), else merges the
 *       applied object into the stored one (RFC 7386: maps key by key, everything else replaced, null
 *       removes) and stores the result (as a {@code PUT} without resourceVersion). The stored
 *       resourceVersion moves only when the content changed, as on a real server. The field manager's
 *       {@code managedFields} entry records the fields it applied ({@link ApplyOwnership}), so that a
 *       client that skips an apply which would change nothing (the operator's act phase) skips it
 *       here too.</li>
 *   <li><b>JSON merge patch</b> as RFC 7386 says: the mock appends to lists and keeps nulls; here
 *       lists are replaced and null removes the field. A resourceVersion in the patch is a
 *       precondition (409 when stale), as on a real server.</li>
 *   <li><b>Query strings</b> ({@code ?fieldManager=...&force=true}) are dropped before the mock sees
 *       the path, so a PATCH of {@code /status} stays a status patch.</li>
 * </ul>
 *
 * <p>What it does <em>not</em> model, so a test passing here can still fail on a real API server:
 * <ul>
 *   <li>field ownership beyond recording it: only applies get a {@code managedFields} entry (updates
 *       and patches none), lists are owned whole, fields an earlier apply set and a later one omits
 *       are kept (a real server removes them); no conflicts between field managers ({@code force} is
 *       always implied);</li>
 *   <li>list merging by key ({@code x-kubernetes-list-type: map}, e.g. containers by name, owner
 *       references by uid): every list is replaced whole;</li>
 *   <li>strategic merge patch (still 415), set-based label selectors (ignored by the mock, so an
 *       informer sees more objects than it would), garbage collection through owner references,
 *       admission, defaulting, schema validation and pruning of CRDs, dry run, paging;</li>
 *   <li>atomicity across requests: the shim's read-merge-write is serialised within this dispatcher
 *       only.</li>
 * </ul>
 */
public final class ApplyShimDispatcher extends KubernetesCrudDispatcher {
    private static final String APPLY = "apply-patch";
    private static final String MERGE = "merge-patch";

    @Override
    public synchronized MockResponse handlePatch(RecordedRequest request) {
        String path = withoutQuery(request.getPath());
        String contentType = String.valueOf(request.getHeader("Content-Type"));
        String body = request.getUtf8Body();
        if (contentType.contains(APPLY)) return apply(path, body, ApplyOwnership.fieldManager(request.getPath()));
        if (contentType.contains(MERGE)) return mergePatch(path, body);
        return super.handlePatch(copy(request, request.method().name(), path, body));
    }

    @Override
    public synchronized MockResponse handleCreate(RecordedRequest request) {
        return super.handleCreate(copy(request, "POST", withoutQuery(request.getPath()), request.getUtf8Body()));
    }

    @Override
    public synchronized MockResponse handleUpdate(RecordedRequest request) {
        return super.handleUpdate(copy(request, "PUT", withoutQuery(request.getPath()), request.getUtf8Body()));
    }

    @Override
    public synchronized MockResponse handleDelete(String path) {
        return super.handleDelete(withoutQuery(path));
    }

    private MockResponse apply(String path, String body, String fieldManager) {
        JsonNode applied = parse(body);
        boolean status = path.endsWith("/status");
        String objectPath = status ? path.substring(0, path.length() - "/status".length()) : path;
        MockResponse existing = handleGet(objectPath);
        if (existing.code() == 404) {
            String collection = objectPath.substring(0, objectPath.lastIndexOf('/'));
            ObjectNode created = (ObjectNode) applied.deepCopy();
            ApplyOwnership.record(created, applied, fieldManager, status);
            return super.handleCreate(request("POST", collection, Serialization.asJson(created)));
        }
        ObjectNode merged = (ObjectNode) merge(parse(existing.getBody().readUtf8()), applied);
        ((ObjectNode) merged.get("metadata")).remove("resourceVersion");
        ApplyOwnership.record(merged, applied, fieldManager, status);
        return super.handleUpdate(request("PUT", path, Serialization.asJson(merged)));
    }

    private MockResponse mergePatch(String path, String body) {
        String objectPath = path.endsWith("/status") ? path.substring(0, path.length() - "/status".length()) : path;
        MockResponse existing = handleGet(objectPath);
        if (existing.code() == 404) return existing;
        JsonNode patch = parse(body);
        ObjectNode merged = (ObjectNode) merge(parse(existing.getBody().readUtf8()), patch);
        if (patch.path("metadata").path("resourceVersion").isMissingNode()) {
            ((ObjectNode) merged.get("metadata")).remove("resourceVersion");
        }
        return super.handleUpdate(request("PUT", path, Serialization.asJson(merged)));
    }

    /** RFC 7386: maps merge key by key, null removes, anything else replaces. */
    public static JsonNode merge(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) return patch.deepCopy();
        ObjectNode result = target != null && target.isObject() ? ((ObjectNode) target).deepCopy()
                : Serialization.jsonMapper().createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (field.getValue().isNull()) {
                result.remove(field.getKey());
            } else {
                result.set(field.getKey(), merge(result.get(field.getKey()), field.getValue()));
            }
        }
        return result;
    }

    private static JsonNode parse(String body) {
        try {
            return Serialization.jsonMapper().readTree(body);
        } catch (Exception notJson) {
            return Serialization.unmarshal(body, JsonNode.class); // apply bodies may be YAML
        }
    }

    private static String withoutQuery(String path) {
        int query = path.indexOf('?');
        return query < 0 ? path : path.substring(0, query);
    }

    private static RecordedRequest copy(RecordedRequest request, String method, String path, String body) {
        return new RecordedRequest(request.getHttpVersion(), io.fabric8.mockwebserver.dsl.HttpMethod.valueOf(method),
                path, request.getHeaders(), buffer(body));
    }

    private static RecordedRequest request(String method, String path, String body) {
        return new RecordedRequest("HTTP/1.1", io.fabric8.mockwebserver.dsl.HttpMethod.valueOf(method), path,
                Headers.builder().add("Content-Type", "application/json").build(), buffer(body));
    }

    private static Buffer buffer(String body) {
        Buffer buffer = new Buffer();
        if (body != null) buffer.writeUtf8(body);
        return buffer;
    }
}
