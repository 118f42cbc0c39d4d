package dev.runbook.operator.observe;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.SecondaryKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The secondary objects of one primary as one read of the API server finds them, for {@code runbook
 * why}: each kind listed once in the primary's namespace, through the label selector the controller's
 * informer uses, then kept when the controller's own mapping ({@link SecondaryMappers}) maps it to the
 * primary; a reference mapping's objects read by name. Each object is trimmed as the informers trim
 * it ({@link TrimmedCache}), so the facts are the ones a cycle makes.
 */
public final class ListedSecondaries implements ObservedSecondaries.Source {
    private final KubernetesClient client;
    private final BundleSpec spec;
    private final ResourceID primary;
    private final TrimmedCache trimmed;

    /** @param primary the primary's name and namespace (null namespace for a cluster-scoped primary) */
    public ListedSecondaries(KubernetesClient client, BundleSpec spec, ResourceID primary) {
        this.client = client;
        this.spec = spec;
        this.primary = primary;
        this.trimmed = new TrimmedCache(spec.fieldManager());
    }

    @Override
    public List<GenericKubernetesResource> mappedTo(int index, SecondaryKind kind) {
        var mapper = SecondaryMappers.of(spec.primary(), kind, namespace -> Stream.of(primary));
        var resources = client.genericKubernetesResources(kind.kind().apiVersion(), kind.kind().kind());
        var inScope = primary.getNamespace().isPresent() ? resources.inNamespace(primary.getNamespace().get()) : resources.inAnyNamespace();
        String selector = SecondaryMappers.selector(spec.primary(), kind, null);
        List<GenericKubernetesResource> listed = selector == null ? inScope.list().getItems()
                : inScope.withLabelSelector(selector).list().getItems();
        return listed.stream().filter(object -> mapper.toPrimaryResourceIDs(object).contains(primary))
                .map(trimmed::trim).toList();
    }

    @Override
    public Optional<GenericKubernetesResource> get(int index, SecondaryKind kind, ResourceID id) {
        var resources = client.genericKubernetesResources(kind.kind().apiVersion(), kind.kind().kind());
        GenericKubernetesResource object = id.getNamespace().isPresent()
                ? resources.inNamespace(id.getNamespace().get()).withName(id.getName()).get()
                : resources.withName(id.getName()).get();
        return Optional.ofNullable(object).map(trimmed::trim);
    }
}
