package dev.runbook.operator.controller;

import dev.runbook.engine.bundle.PrimaryKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.description.annotation.AnnotationDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.loading.ClassLoadingStrategy;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Java class JOSDK reconciles for a bundle's primary kind, made at run time.
 *
 * <p>JOSDK cannot take a plain {@link GenericKubernetesResource} as the primary resource (JOSDK issue
 * #2716): it names the kind from the class, through fabric8's {@code @Group}, {@code @Version},
 * {@code @Kind} and {@code @Plural} annotations and the {@link Namespaced} marker, when it builds the
 * controller's informer ({@code client.resources(Class)}), its resource type name and its default
 * owner-reference mapper. A bundle names its kind only in {@code bundle.yaml}, so this class writes
 * those annotations onto an empty subclass of {@link GenericKubernetesResource}: everything else
 * (spec, status, any field) stays in the generic resource's additional properties, and the operator
 * reads and writes the object as maps. The subclass adds no field or method; it exists only to carry
 * the kind.
 *
 * <p>Java has no public API to define an annotated class without a bytecode library, hence ByteBuddy;
 * this is the only place that uses it. One instance per operator: the classes it made are kept so that
 * the same kind gets the same class, and nothing is static.
 */
public final class PrimaryClasses {
    /** The package the generated classes are named in (they live in their own class loader). */
    static final String PACKAGE = "dev.runbook.operator.controller.generated";

    private final Map<PrimaryKind, Class<? extends GenericKubernetesResource>> made = new ConcurrentHashMap<>();

    /** The annotated subclass of {@link GenericKubernetesResource} for this kind. */
    public Class<? extends GenericKubernetesResource> classFor(PrimaryKind kind) {
        return made.computeIfAbsent(kind, PrimaryClasses::make);
    }

    private static Class<? extends GenericKubernetesResource> make(PrimaryKind primary) {
        var kind = primary.kind();
        if (kind.group().isEmpty()) {
            throw new IllegalArgumentException("primary kind " + kind + ": a bundle reconciles a custom resource, "
                    + "whose apiVersion is group/version (e.g. example.runbook.dev/v1)");
        }
        DynamicType.Builder<GenericKubernetesResource> builder = new ByteBuddy()
                .subclass(GenericKubernetesResource.class)
                .name(PACKAGE + "." + className(primary))
                .annotateType(
                        annotation(Group.class, kind.group()),
                        annotation(Version.class, kind.version()),
                        annotation(Kind.class, kind.kind()),
                        annotation(Plural.class, primary.plural()));
        if (primary.namespaced()) {
            builder = builder.implement(Namespaced.class);
        }
        return builder.make()
                .load(PrimaryClasses.class.getClassLoader(), ClassLoadingStrategy.Default.WRAPPER)
                .getLoaded();
    }

    /** e.g. {@code PostgresCluster_v1alpha1_postgres_runbook_dev}: unique per group, version and kind. */
    static String className(PrimaryKind primary) {
        var kind = primary.kind();
        String group = kind.group().replaceAll("[^A-Za-z0-9]", "_").toLowerCase(Locale.ROOT);
        return kind.kind() + "_" + kind.version() + "_" + group;
    }

    private static AnnotationDescription annotation(Class<? extends java.lang.annotation.Annotation> type, String value) {
        return AnnotationDescription.Builder.ofType(type).define("value", value).build();
    }
}
