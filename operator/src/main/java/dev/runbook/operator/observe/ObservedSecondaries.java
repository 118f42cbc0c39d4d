package dev.runbook.operator.observe;

import dev.runbook.engine.bundle.SecondaryKind;
import dev.runbook.operator.kube.KubeApi;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.javaoperatorsdk.operator.processing.event.ResourceID;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The secondary objects a cycle observes for its primary, kind by kind in {@code bundle.yaml}'s order,
 * each kind's in name order, as the frozen maps the facts are made of. The controller reads them from
 * its informers; {@code runbook why} from one read of each kind ({@link ListedSecondaries}): both go
 * through here, so both observe a primary the same way.
 */
public final class ObservedSecondaries {
    /** Where the objects come from. */
    public interface Source {
        /** The objects of the {@code index}-th secondary kind (owner or labels mapping) mapped to the primary. */
        List<GenericKubernetesResource> mappedTo(int index, SecondaryKind kind);

        /** The object of the {@code index}-th secondary kind (a reference mapping's) with that id, if there is one. */
        Optional<GenericKubernetesResource> get(int index, SecondaryKind kind, ResourceID id);
    }

    private ObservedSecondaries() {}

    /** Per secondary kind, the objects observed for the primary, as frozen maps. */
    public static List<List<Map<String, Object>>> of(List<SecondaryKind> secondaries, Source source, KubeApi api) {
        List<List<Map<String, Object>>> observed = new ArrayList<>();
        for (int i = 0; i < secondaries.size(); i++) {
            SecondaryKind kind = secondaries.get(i);
            int index = i;
            List<GenericKubernetesResource> objects;
            if (kind.mapping() == SecondaryKind.Mapping.REFERENCE) {
                // The objects this primary's referring objects (its pods) name.
                objects = new ReferenceMapping(kind).referencedBy(observed.get(referringIndex(secondaries, kind)),
                        id -> source.get(index, kind, id));
            } else {
                objects = source.mappedTo(i, kind).stream()
                        .sorted(Comparator.comparing((GenericKubernetesResource o) -> o.getMetadata().getName()))
                        .toList();
            }
            // Frozen as read: the facts take these maps without copying them (Values.frozenInPlace).
            observed.add(objects.stream().map(api::toFrozenMap).toList());
        }
        return observed;
    }

    /** The position of the first secondary kind a reference mapping's objects are named by (declared before it). */
    private static int referringIndex(List<SecondaryKind> secondaries, SecondaryKind kind) {
        for (int i = 0; i < secondaries.size(); i++) {
            if (secondaries.get(i).kind().kind().equals(kind.reference().by())) return i;
        }
        throw new IllegalStateException(kind.kind() + ": bundle.yaml's parser lets no reference name an undeclared kind");
    }
}
