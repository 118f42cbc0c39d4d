package dev.runbook.operator.kube;

import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Values;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Kubernetes API as the operator's act and record phases use it: objects as nested maps, named by
 * {@link ObjectRef}, whatever their kind. Built-in kinds are known to fabric8; a bundle's primary kind is
 * registered with the plural that {@code bundle.yaml} declares; any other custom kind is looked up
 * through API discovery (once per kind, cached by fabric8).
 *
 * <p>These are live requests: the observe phase never uses this class, it reads informer caches.
 *
 * <p>A request about one namespaced object always names its namespace: without one the client's
 * default namespace would apply, so such a request is refused here ({@link MissingNamespaceException})
 * and never sent. Whether a kind is namespaced comes from the registered primary kind, fabric8's model
 * of a built-in kind, or API discovery (once per kind); a kind discovery does not know counts as namespaced.
 */
public final class KubeApi {
    private final KubernetesClient client;
    private final Map<String, ResourceDefinitionContext> registered = new ConcurrentHashMap<>();
    private final Map<String, Boolean> namespaced = new ConcurrentHashMap<>();

    public KubeApi(KubernetesClient client) {
        this.client = client;
    }

    public KubernetesClient client() { return client; }

    /** Makes a bundle's primary kind known without discovery, with the plural its bundle declares. */
    public void register(PrimaryKind primary) {
        var kind = primary.kind();
        registered.put(key(kind.apiVersion(), kind.kind()), new ResourceDefinitionContext.Builder()
                .withGroup(kind.group())
                .withVersion(kind.version())
                .withKind(kind.kind())
                .withPlural(primary.plural())
                .withNamespaced(primary.namespaced())
                .build());
    }

    private static String key(String apiVersion, String kind) { return apiVersion + "/" + kind; }

    private MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
            kind(String apiVersion, String kind) {
        if (apiVersion == null || apiVersion.isEmpty()) {
            throw new IllegalArgumentException(kind + ": the object needs an apiVersion to be found in the API");
        }
        ResourceDefinitionContext context = registered.get(key(apiVersion, kind));
        return context != null ? client.genericKubernetesResources(context) : client.genericKubernetesResources(apiVersion, kind);
    }

    private NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
            in(String apiVersion, String kind, String namespace) {
        var operation = kind(apiVersion, kind);
        return namespace == null || namespace.isEmpty() ? operation : operation.inNamespace(namespace);
    }

    private Resource<GenericKubernetesResource> resource(ObjectRef ref) {
        return one(ref).withName(ref.getName());
    }

    /** The operation for one object: in its namespace, which a namespaced kind must name. */
    private NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>>
            one(ObjectRef ref) {
        boolean noNamespace = ref.getNamespace() == null || ref.getNamespace().isEmpty();
        if (noNamespace && isNamespaced(ref.getApiVersion(), ref.getKind())) {
            throw MissingNamespaceException.of(ref.getApiVersion(), ref.getKind(), ref.getName());
        }
        return in(ref.getApiVersion(), ref.getKind(), ref.getNamespace());
    }

    /** Whether objects of the kind live in a namespace; a kind nothing knows counts as namespaced. */
    public boolean isNamespaced(String apiVersion, String kind) {
        ResourceDefinitionContext context = registered.get(key(apiVersion, kind));
        if (context != null) return context.isNamespaceScoped();
        return namespaced.computeIfAbsent(key(apiVersion, kind), k -> discoverNamespaced(apiVersion, kind));
    }

    private boolean discoverNamespaced(String apiVersion, String kind) {
        Class<?> model = client.getKubernetesSerialization().getRegisteredKubernetesResource(apiVersion, kind);
        if (model != null && HasMetadata.class.isAssignableFrom(model)) return Namespaced.class.isAssignableFrom(model);
        APIResourceList resources = client.getApiResources(apiVersion);
        if (resources == null) return true;
        return resources.getResources().stream()
                .filter(r -> kind.equals(r.getKind()) && !r.getName().contains("/"))
                .findFirst().map(r -> !Boolean.FALSE.equals(r.getNamespaced())).orElse(true);
    }

    /** The object as it is now, or empty when there is none. */
    public Optional<Map<String, Object>> get(ObjectRef ref) {
        return Optional.ofNullable(resource(ref).get()).map(this::toMap);
    }

    /** Every object of a kind in a namespace (all namespaces when empty), optionally with equality labels. */
    public List<Map<String, Object>> list(String apiVersion, String kind, String namespace, Map<String, String> labels) {
        var operation = kind(apiVersion, kind);
        var items = (namespace == null || namespace.isEmpty() ? operation.inAnyNamespace() : operation.inNamespace(namespace))
                .withLabels(labels).list().getItems();
        return items.stream().map(this::toMap).toList();
    }

    /** Server-side apply with this field manager, taking over conflicting fields; returns the object after. */
    public Map<String, Object> serverSideApply(Map<String, Object> object, String fieldManager) {
        ObjectRef ref = Maps.refOf(object);
        GenericKubernetesResource resource = toResource(object);
        GenericKubernetesResource applied = one(ref)
                .resource(resource).fieldManager(fieldManager).forceConflicts().serverSideApply();
        return toMap(applied);
    }

    /** A JSON merge patch (RFC 7386) of the object; returns the object after. One request. */
    public Map<String, Object> mergePatch(ObjectRef ref, Map<String, Object> patch, String fieldManager) {
        return toMap(patchable(ref).patch(mergePatch(fieldManager), json(patch)));
    }

    /** A JSON merge patch (RFC 7386) of the object's status subresource; returns the object after. One request. */
    public Map<String, Object> mergePatchStatus(ObjectRef ref, Map<String, Object> patch, String fieldManager) {
        return toMap(patchable(ref).subresource("status").patch(mergePatch(fieldManager), json(patch)));
    }

    /**
     * The object to patch, named by a stub: fabric8 reads an object from the server before it patches it
     * unless it is handed one (it only takes the name and namespace from it), which would double every
     * patch's requests.
     */
    private Resource<GenericKubernetesResource> patchable(ObjectRef ref) {
        GenericKubernetesResource stub = new GenericKubernetesResource();
        stub.setApiVersion(ref.getApiVersion());
        stub.setKind(ref.getKind());
        stub.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(ref.getName())
                .withNamespace(ref.getNamespace().isEmpty() ? null : ref.getNamespace()).build());
        return one(ref).resource(stub);
    }

    private static PatchContext mergePatch(String fieldManager) {
        return new PatchContext.Builder().withPatchType(PatchType.JSON_MERGE).withFieldManager(fieldManager).build();
    }

    /**
     * Deletes the object and, in the background, what it owns; false when it was already gone.
     * Background is explicit because the API's default for some kinds (batch/v1 Jobs) orphans the
     * dependents, which would leave a deleted backup Job's pod and volume behind.
     */
    public boolean delete(ObjectRef ref) {
        return !resource(ref).withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.BACKGROUND)
                .delete().isEmpty();
    }

    /** Creates the object; returns it as the API server stored it. */
    public Map<String, Object> create(Map<String, Object> object) {
        ObjectRef ref = Maps.refOf(object);
        return toMap(one(ref).resource(toResource(object)).create());
    }

    /**
     * Replaces the object (PUT). With a resourceVersion in the object, the API server refuses the write
     * with 409 when the object changed since; without one, the stored one is overwritten.
     */
    public Map<String, Object> replace(Map<String, Object> object) {
        ObjectRef ref = Maps.refOf(object);
        return toMap(one(ref).resource(toResource(object)).update());
    }

    /** Replaces the object's status (PUT of the status subresource), with the same resourceVersion check. */
    public Map<String, Object> replaceStatus(Map<String, Object> object) {
        ObjectRef ref = Maps.refOf(object);
        return toMap(one(ref).resource(toResource(object)).updateStatus());
    }

    /** Any fabric8 object (an informer's cached resource, a typed model) as nested maps. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> toMap(HasMetadata object) {
        if (object instanceof CompactResource compact) return compact.toMap(client.getKubernetesSerialization());
        Map<String, Object> map = client.getKubernetesSerialization().convertValue(object, LinkedHashMap.class);
        return map;
    }

    /**
     * As {@link #toMap}, made deeply unmodifiable in place ({@link Values#frozenInPlace}): what the observe
     * phase reads from the caches. The maps are new on every call and no one else holds them, so the facts
     * take them as they are instead of copying each cached object once more to freeze it.
     */
    public Map<String, Object> toFrozenMap(HasMetadata object) {
        return Values.frozenInPlace(toMap(object));
    }

    /** {@code object} as a generic resource, as the client reads it. */
    public GenericKubernetesResource toResource(Map<String, Object> object) {
        return client.getKubernetesSerialization().convertValue(object, GenericKubernetesResource.class);
    }

    private String json(Map<String, Object> patch) {
        return client.getKubernetesSerialization().asJson(patch);
    }
}
