package dev.runbook.instance.probe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** The JSON answers of the instance's HTTP endpoints: a body with its status, and {@code {"error": "..."}}. */
public final class JsonAnswer {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonAnswer() {}

    public static String error(String message) {
        return JSON.createObjectNode().put("error", message == null ? "unknown error" : message).toString();
    }

    public static void send(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
