package dev.runbook.engine.policy;

import java.util.Set;

/**
 * The built-in Kubernetes kinds that have no namespace. An object of one of these is cluster-scoped
 * whatever its {@code metadata.namespace} says (the API server ignores it), so the plan check treats
 * it as such; any other object without a namespace is put in its primary's namespace first
 * ({@link ExplicitNamespace}), and one that still has none (a cluster-scoped custom kind) counts as
 * cluster-scoped too.
 */
public final class ClusterScopedKinds {
    public static final Set<String> BUILT_IN = Set.of(
            "Namespace", "Node", "PersistentVolume", "StorageClass", "VolumeAttachment", "CSIDriver", "CSINode",
            "ClusterRole", "ClusterRoleBinding", "CustomResourceDefinition", "APIService", "PriorityClass",
            "RuntimeClass", "IngressClass", "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration",
            "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding", "CertificateSigningRequest",
            "FlowSchema", "PriorityLevelConfiguration", "ComponentStatus", "TokenReview", "SubjectAccessReview",
            "SelfSubjectAccessReview", "SelfSubjectRulesReview");

    private ClusterScopedKinds() {}

    public static boolean isClusterScoped(String kind, String namespace) {
        return BUILT_IN.contains(kind) || namespace == null || namespace.isEmpty();
    }
}
