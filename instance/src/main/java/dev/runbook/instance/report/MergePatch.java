package dev.runbook.instance.report;

import java.util.Map;
import java.util.Objects;

/**
 * A JSON merge patch of an object's annotations: a value sets the key, null removes it. Used for the
 * instance's own pod and for the backup Job's own Job, the only objects the instance manager writes.
 */
public final class MergePatch {
    private MergePatch() {
    }

    public static String annotations(Map<String, String> annotations) {
        StringBuilder json = new StringBuilder("{\"metadata\":{\"annotations\":{");
        boolean first = true;
        for (Map.Entry<String, String> e : annotations.entrySet()) {
            if (!first) {
                json.append(',');
            }
            first = false;
            json.append(quote(e.getKey())).append(':').append(e.getValue() == null ? "null" : quote(e.getValue()));
        }
        return json.append("}}}").toString();
    }

    static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : Objects.requireNonNull(text).toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                default -> out.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return out.append('"').toString();
    }
}
