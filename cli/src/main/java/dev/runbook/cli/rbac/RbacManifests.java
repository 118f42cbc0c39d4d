package dev.runbook.cli.rbac;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The Role and RoleBinding (one pair per namespace), or the ClusterRole and ClusterRoleBinding, that
 * grant a service account what a bundle needs ({@link BundleRbac}), as YAML ready for
 * {@code kubectl apply -f -}. Resources with the same verbs in the same group share a rule.
 */
public final class RbacManifests {
    private RbacManifests() {}

    /**
     * @param namespaces     where the bundle acts; empty for cluster-wide (a ClusterRole)
     * @param serviceAccount {@code NAMESPACE/NAME} of the operator's service account
     */
    public static String render(String name, Map<String, Set<String>> needed, List<String> namespaces, String serviceAccount) {
        return render(name, needed, Map.of(), namespaces, serviceAccount);
    }

    /**
     * As {@link #render(String, Map, List, String)}, with the cluster-scoped kinds the bundle reads
     * ({@link BundleRbac#clusterReads}): in the ClusterRole when cluster-wide, otherwise in a
     * ClusterRole {@code NAME-read-cluster} of their own beside the namespaced Roles.
     */
    public static String render(String name, Map<String, Set<String>> needed, Map<String, Set<String>> clusterReads,
                                List<String> namespaces, String serviceAccount) {
        String[] account = serviceAccount.split("/", 2);
        if (account.length != 2 || account[0].isBlank() || account[1].isBlank()) {
            throw new IllegalArgumentException("--service-account: '" + serviceAccount + "' is not NAMESPACE/NAME, e.g. runbook-system/runbook-operator");
        }
        List<String> documents = new ArrayList<>();
        if (namespaces.isEmpty()) {
            Map<String, Set<String>> all = new TreeMap<>(needed);
            clusterReads.forEach((resource, verbs) -> all.merge(resource, verbs, (a, b) -> {
                Set<String> both = new TreeSet<>(a);
                both.addAll(b);
                return both;
            }));
            documents.add(role("ClusterRole", name, null, all));
            documents.add(binding("ClusterRoleBinding", "ClusterRole", name, null, account));
        } else {
            for (String namespace : namespaces) {
                documents.add(role("Role", name, namespace, needed));
                documents.add(binding("RoleBinding", "Role", name, namespace, account));
            }
            if (!clusterReads.isEmpty()) {
                documents.add(role("ClusterRole", name + "-read-cluster", null, clusterReads));
                documents.add(binding("ClusterRoleBinding", "ClusterRole", name + "-read-cluster", null, account));
            }
        }
        return String.join("---\n", documents);
    }

    private static String metadata(String name, String namespace) {
        return "metadata:\n  name: " + name + "\n" + (namespace == null ? "" : "  namespace: " + namespace + "\n")
                + "  labels:\n    app.kubernetes.io/name: runbook-operator\n";
    }

    private static String role(String kind, String name, String namespace, Map<String, Set<String>> needed) {
        return "apiVersion: rbac.authorization.k8s.io/v1\nkind: " + kind + "\n" + metadata(name, namespace) + "rules:\n" + rules(needed, "  ");
    }

    /**
     * What the Helm chart grants by default (deploy/chart/rbac-rules.yaml): the bundle's Role {@code rules}, its
     * cluster-scoped reads' rules, and the operator's own in its namespace ({@link OperatorRbac}).
     */
    public static String chartRules(Map<String, Set<String>> needed, Map<String, Set<String>> clusterReads) {
        return "# What the operator needs to run the image's bundle, derived by `runbook rbac BUNDLE --chart-rules`\n"
                + "# (docs/install.md#permissions). Do not edit: deploy/render writes it again from the bundle.\n"
                + "rules:\n" + rules(needed, "  ") + list("clusterReads", clusterReads) + list("ownNamespace", OperatorRbac.ownNamespace());
    }

    private static String list(String key, Map<String, Set<String>> needed) {
        return key + ":" + (needed.isEmpty() ? " []\n" : "\n" + rules(needed, "  "));
    }

    /** The rules granting {@code needed}: group -> verbs -> resources, so that resources with the same verbs share a rule. */
    private static String rules(Map<String, Set<String>> needed, String indent) {
        Map<String, Map<String, List<String>>> grouped = new TreeMap<>();
        needed.forEach((resource, verbs) -> {
            String group = resource.substring(0, resource.indexOf('/'));
            grouped.computeIfAbsent(group, g -> new TreeMap<>())
                    .computeIfAbsent(String.join(", ", verbs), v -> new ArrayList<>()).add(resource.substring(group.length() + 1));
        });
        StringBuilder out = new StringBuilder();
        grouped.forEach((group, byVerbs) -> byVerbs.forEach((verbs, resources) -> out
                .append(indent).append("- apiGroups: [").append(group.isEmpty() ? "\"\"" : group).append("]\n")
                .append(indent).append("  resources: [").append(String.join(", ", resources)).append("]\n")
                .append(indent).append("  verbs: [").append(verbs).append("]\n")));
        return out.toString();
    }

    private static String binding(String kind, String roleKind, String name, String namespace, String[] account) {
        return "apiVersion: rbac.authorization.k8s.io/v1\nkind: " + kind + "\n" + metadata(name, namespace)
                + "roleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: " + roleKind + "\n  name: " + name + "\n"
                + "subjects:\n  - kind: ServiceAccount\n    name: " + account[1] + "\n    namespace: " + account[0] + "\n";
    }
}
