package dev.runbook.operator.error;

import java.util.List;

/** Applying one action failed; names the action and the rules that asked for it. */
public final class ActionFailedException extends RuntimeException {
    private final String action;
    private final List<String> rules;

    public ActionFailedException(String action, List<String> rules, Throwable cause) {
        super(action + ": " + rootMessage(cause), cause);
        this.action = action;
        this.rules = List.copyOf(rules);
    }

    /** The identity of the action, e.g. {@code apply ConfigMap demo/web-config}. */
    public String action() { return action; }

    public List<String> rules() { return rules; }

    static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String message = error.getMessage() != null ? error.getMessage() : root.getMessage();
        return message == null ? root.getClass().getSimpleName() : message;
    }
}
