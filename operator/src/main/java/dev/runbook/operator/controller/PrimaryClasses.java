package dev.runbook.operator.controller;

import dev.runbook.engine.bundle.PrimaryKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

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
 * <p>Java has no public API to define an annotated class without a bytecode library, hence ASM (the
 * engine's containment uses it already; ByteBuddy, used here before, loaded some 600 classes into the
 * operator for this one class). One instance per operator: the classes it made are kept so that
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
        String name = PACKAGE + "." + className(primary);
        String superName = Type.getInternalName(GenericKubernetesResource.class);
        String[] interfaces = primary.namespaced() ? new String[] {Type.getInternalName(Namespaced.class)} : new String[0];
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, name.replace('.', '/'), null, superName, interfaces);
        annotate(writer, Group.class, kind.group());
        annotate(writer, Version.class, kind.version());
        annotate(writer, Kind.class, kind.kind());
        annotate(writer, Plural.class, primary.plural());
        MethodVisitor constructor = writer.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        constructor.visitCode();
        constructor.visitVarInsn(Opcodes.ALOAD, 0);
        constructor.visitMethodInsn(Opcodes.INVOKESPECIAL, superName, "<init>", "()V", false);
        constructor.visitInsn(Opcodes.RETURN);
        constructor.visitMaxs(0, 0);
        constructor.visitEnd();
        writer.visitEnd();
        return new OneClass(PrimaryClasses.class.getClassLoader()).define(name, writer.toByteArray())
                .asSubclass(GenericKubernetesResource.class);
    }

    private static void annotate(ClassWriter writer, Class<? extends java.lang.annotation.Annotation> type, String value) {
        AnnotationVisitor annotation = writer.visitAnnotation(Type.getDescriptor(type), true);
        annotation.visit("value", value);
        annotation.visitEnd();
    }

    /** A class loader of one generated class: another PrimaryClasses may make a class of the same name. */
    private static final class OneClass extends ClassLoader {
        OneClass(ClassLoader parent) {
            super(parent);
        }

        Class<?> define(String name, byte[] bytes) {
            return defineClass(name, bytes, 0, bytes.length);
        }
    }

    /** e.g. {@code PostgresCluster_v1alpha1_postgres_runbook_dev}: unique per group, version and kind. */
    static String className(PrimaryKind primary) {
        var kind = primary.kind();
        String group = kind.group().replaceAll("[^A-Za-z0-9]", "_").toLowerCase(Locale.ROOT);
        return kind.kind() + "_" + kind.version() + "_" + group;
    }
}
