package dev.runbook.engine.state;

import dev.runbook.engine.problem.Problem;

import java.util.Map;

/** A Kubernetes object read from a state file, with where it was read, for messages. */
public record ObservedObject(Map<String, Object> object, String file, int line) {
    public Problem problem(String message) {
        return new Problem(file, line, 1, message);
    }

    public String apiVersion() { return String.valueOf(object.get("apiVersion")); }

    public String kind() { return String.valueOf(object.get("kind")); }

    public String name() {
        Object metadata = object.get("metadata");
        return metadata instanceof Map<?, ?> m ? String.valueOf(m.get("name")) : "null";
    }
}
