package dev.runbook.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

/**
 * The {@code managedFields} entry a server-side apply leaves on the object, as a real API server
 * records it: the applying field manager, operation {@code Apply}, and the fields of the applied
 * object in the {@code FieldsV1} form ({@code f:name} per map key, {@code {}} for a leaf). Without it
 * a client that compares what it would apply with the fields it owns (the operator's act phase does,
 * to send nothing when nothing would change) finds no entry and applies every time, and reports the
 * resourceVersion others moved meanwhile (a StatefulSet's status) as its own update.
 *
 * <p>Simpler than a real server: lists are owned whole (a real server names a keyed list's items,
 * {@code k:{...}}), and there is no {@code time}, so that applying the same fields again leaves the
 * object, and its resourceVersion, unchanged, as a real server does.
 */
final class ApplyOwnership {
    private ApplyOwnership() {}

    /** The {@code fieldManager} query parameter of a request path, or the one a client without it gets. */
    static String fieldManager(String path) {
        int query = path.indexOf('?');
        if (query >= 0) {
            for (String parameter : path.substring(query + 1).split("&")) {
                if (parameter.startsWith("fieldManager=")) {
                    return URLDecoder.decode(parameter.substring("fieldManager=".length()), StandardCharsets.UTF_8);
                }
            }
        }
        return "unknown";
    }

    /** Replaces {@code fieldManager}'s apply entry in {@code stored}'s metadata with the fields of {@code applied}. */
    static void record(ObjectNode stored, JsonNode applied, String fieldManager, boolean status) {
        if (!(stored.get("metadata") instanceof ObjectNode metadata)) return;
        ObjectNode entry = Serialization.jsonMapper().createObjectNode();
        entry.put("manager", fieldManager);
        entry.put("operation", "Apply");
        entry.put("apiVersion", applied.path("apiVersion").asText());
        entry.put("fieldsType", "FieldsV1");
        entry.set("fieldsV1", fields(applied, true));
        if (status) entry.put("subresource", "status");
        // The manager's entry is replaced where it stands: the same apply again leaves the object as it was.
        ArrayNode entries = Serialization.jsonMapper().createArrayNode();
        boolean replaced = false;
        if (metadata.get("managedFields") instanceof ArrayNode existing) {
            for (JsonNode old : existing) {
                boolean same = fieldManager.equals(old.path("manager").asText()) && "Apply".equals(old.path("operation").asText())
                        && status == "status".equals(old.path("subresource").asText());
                entries.add(same ? entry : old);
                replaced |= same;
            }
        }
        if (!replaced) entries.add(entry);
        metadata.set("managedFields", entries);
    }

    /** The FieldsV1 of an applied object: maps walked, lists and scalars leaves; not the object's identity. */
    private static ObjectNode fields(JsonNode object, boolean top) {
        ObjectNode fields = Serialization.jsonMapper().createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            String key = field.getKey();
            if (top && (key.equals("apiVersion") || key.equals("kind"))) continue;
            JsonNode value = field.getValue();
            if (top && key.equals("metadata") && value.isObject()) {
                ObjectNode metadata = fields((ObjectNode) value, false);
                metadata.remove(java.util.List.of("f:name", "f:namespace"));
                if (!metadata.isEmpty()) fields.set("f:metadata", metadata);
                continue;
            }
            fields.set("f:" + key, value.isObject() ? fields(value, false) : Serialization.jsonMapper().createObjectNode());
        }
        return fields;
    }
}
