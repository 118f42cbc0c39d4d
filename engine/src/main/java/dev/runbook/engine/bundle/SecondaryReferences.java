package dev.runbook.engine.bundle;

import dev.runbook.engine.policy.ClusterScopedKinds;
import dev.runbook.engine.yaml.YamlMap;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads the {@code reference} of a secondary kind in {@code bundle.yaml} and checks that the mapping
 * fits the kind: a cluster-scoped kind (a Node) has no owner in the primary's namespace and no labels
 * naming a primary, so it can only be mapped by reference; a reference names a kind declared before it.
 */
final class SecondaryReferences {
    private static final Pattern FIELD = Pattern.compile("[A-Za-z][A-Za-z0-9]*(\\.[A-Za-z][A-Za-z0-9]*)*");
    private static final String EXAMPLE = "e.g. reference: {by: Pod, field: spec.nodeName}";

    private SecondaryReferences() {}

    /** The reference of a {@code reference} mapping, else null (after checking there is none). */
    static SecondaryKind.Reference reference(YamlMap item, Kind kind, SecondaryKind.Mapping mapping,
                                             List<SecondaryKind> declaredBefore) {
        boolean clusterScoped = ClusterScopedKinds.BUILT_IN.contains(kind.kind());
        YamlMap reference = item.map("reference");
        if (mapping != SecondaryKind.Mapping.REFERENCE) {
            if (reference != null) {
                throw item.error("reference", "only a reference mapping has a reference: add mapping: reference, or remove it");
            }
            if (clusterScoped) {
                throw item.error("mapping", kind.kind() + " is cluster-scoped: it has no owner in the primary's namespace and"
                        + " no labels naming a primary; map it by the objects that name it: mapping: reference, " + EXAMPLE);
            }
            return null;
        }
        if (reference == null) {
            throw item.error("reference", "missing: a reference mapping names the kind and the field that name "
                    + kind.kind() + " objects, " + EXAMPLE);
        }
        if (item.has("selector")) {
            throw item.error("selector", "a reference mapping has no selector: the objects that name " + kind.kind() + " say which");
        }
        reference.allowOnly(BundleSpecParser.keysOf("secondaries[].reference"));
        String by = reference.string("by", "the kind whose objects name a " + kind.kind() + ", " + EXAMPLE);
        boolean declared = declaredBefore.stream()
                .anyMatch(s -> s.kind().kind().equals(by) && s.mapping() != SecondaryKind.Mapping.REFERENCE);
        if (!declared) {
            throw reference.error("by", "'" + by + "' is not a secondary kind declared above this one (by owner or labels):"
                    + " declare the kind whose objects name " + kind.kind() + " first");
        }
        String field = reference.string("field", "the field that holds the name, " + EXAMPLE);
        if (!FIELD.matcher(field).matches()) {
            throw reference.error("field", "'" + field + "' is not a dotted path of fields, e.g. spec.nodeName");
        }
        return new SecondaryKind.Reference(by, field, clusterScoped);
    }
}
