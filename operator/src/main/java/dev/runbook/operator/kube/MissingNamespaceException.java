package dev.runbook.operator.kube;

/**
 * A request about a namespaced object that names no namespace, refused before it reached the API
 * server: there the client's default namespace would apply (inside a pod, the operator's own, where its
 * bundle ConfigMaps live). The engine gives every action its primary's namespace and the plan check
 * refuses objects without one unless the policy lists their kind as cluster-scoped, so this is the last
 * line: it catches a kind the policy wrongly calls cluster-scoped, and any path that skipped the check.
 */
public final class MissingNamespaceException extends IllegalArgumentException {
    public MissingNamespaceException(String message) {
        super(message);
    }

    static MissingNamespaceException of(String apiVersion, String kind, String name) {
        return new MissingNamespaceException(apiVersion + " " + kind + " " + name + " is namespaced but names no namespace: "
                + "refused before it reached the API server, where the client's default namespace would apply; set "
                + "metadata.namespace in the rule or template (a policy that lists " + kind + " under clusterScoped is "
                + "wrong: it is namespaced)");
    }

    /** The same refusal, naming the rules that asked for the action. */
    public MissingNamespaceException askedFor(java.util.List<String> rules) {
        MissingNamespaceException named = new MissingNamespaceException("asked for by rule" + (rules.size() == 1 ? " " : "s ")
                + String.join(", ", rules.stream().map(r -> "'" + r + "'").toList()) + ": " + getMessage());
        named.initCause(this);
        return named;
    }
}
