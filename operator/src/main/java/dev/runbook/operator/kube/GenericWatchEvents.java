package dev.runbook.operator.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The operator client's serialization: fabric8's, except that the object of a watch event is read as
 * a {@link GenericKubernetesResource} when it is of a kind fabric8 ships a model class for (a Pod, a
 * StatefulSet, a Service...), as a list of that kind reads its items. Every secondary informer of a
 * bundle watches its kind generically; fabric8 read each of their watch events into the typed model
 * class first, then converted it into a generic resource again (serialized and read once more): at
 * 100 clusters the two were a fifth of the operator's processor time outside the JIT compiler while it
 * converged (docs/performance.md#where-the-cpu-goes-while-converging).
 *
 * <p>Kept typed: the classes registered on this serialization (a bundle's primary class, which its
 * informer watches typed), and objects without metadata (the {@code Status} of an {@code ERROR}
 * event). An informer that watches a shipped model class typed (the bundle ConfigMaps') gets the
 * generic object converted to its class by fabric8, as it converted the other way before.
 */
public final class GenericWatchEvents extends KubernetesSerialization {
    private final ObjectMapper mapper;
    private final Set<Class<?>> registered = ConcurrentHashMap.newKeySet();

    public GenericWatchEvents() {
        this(new ObjectMapper());
    }

    private GenericWatchEvents(ObjectMapper mapper) {
        super(mapper, true);
        this.mapper = mapper;
    }

    @Override
    public void registerKubernetesResource(Class<? extends KubernetesResource> type) {
        registered.add(type);
        super.registerKubernetesResource(type);
    }

    @Override
    public void registerKubernetesResource(String apiVersion, String kind, Class<? extends KubernetesResource> type) {
        registered.add(type);
        super.registerKubernetesResource(apiVersion, kind, type);
    }

    /** As fabric8 reads {@code json}; a watch event's object generic unless it is kept typed (above). */
    @Override
    public <T> T unmarshal(String json, Class<T> type) {
        if (type != WatchEvent.class) return super.unmarshal(json, type);
        try {
            JsonNode tree = mapper.readTree(json);
            if (!(tree instanceof ObjectNode event) || !(event.get("object") instanceof ObjectNode object) || typed(object)) {
                return mapper.treeToValue(tree, type);
            }
            event.remove("object");
            WatchEvent read = mapper.treeToValue(event, WatchEvent.class);
            read.setObject(mapper.treeToValue(object, GenericKubernetesResource.class));
            return type.cast(read);
        } catch (IOException e) {
            throw KubernetesClientException.launderThrowable(e);
        }
    }

    /** Whether fabric8 reads {@code object} as it would anyway: no model class, a registered one, or no metadata. */
    private boolean typed(ObjectNode object) {
        Class<?> model = getRegisteredKubernetesResource(object.path("apiVersion").asText(null), object.path("kind").asText(null));
        return model == null || registered.contains(model) || !HasMetadata.class.isAssignableFrom(model);
    }
}
