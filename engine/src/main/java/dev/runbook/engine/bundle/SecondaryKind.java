package dev.runbook.engine.bundle;

import java.util.Map;

/**
 * A kind the bundle's rules observe besides the primary, and how an object of it maps to its
 * primary: by owner reference, by labels whose values may name the primary as {@code {name}}, or by
 * reference: named in a field of another secondary kind's objects (a Node named by a Pod's
 * {@code spec.nodeName}).
 *
 * @param reference for {@link Mapping#REFERENCE} only, else null
 */
public record SecondaryKind(Kind kind, Mapping mapping, Map<String, String> selector, Reference reference) {
    public enum Mapping { OWNER, LABELS, REFERENCE }

    public SecondaryKind {
        selector = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(selector));
    }

    public SecondaryKind(Kind kind, Mapping mapping, Map<String, String> selector) {
        this(kind, mapping, selector, null);
    }

    /**
     * An object of the referenced kind belongs to a primary when one of the primary's objects of kind
     * {@code by} names it in {@code field} (a dotted path, e.g. {@code spec.nodeName}).
     *
     * @param by    a secondary kind declared before this one
     * @param clusterScoped whether the referenced kind has no namespace (a Node): it is then looked up by
     *              name alone, else by name in the referring object's namespace
     */
    public record Reference(String by, String field, boolean clusterScoped) {}

    /** Whether objects of this kind have no namespace: only a referenced kind may be cluster-scoped. */
    public boolean clusterScoped() {
        return reference != null && reference.clusterScoped();
    }
}
