package dev.runbook.operator.testkit;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstancePostProcessor;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ModifierSupport;
import org.junit.platform.commons.support.ReflectionSupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * What {@link RunbookIT} does: starts one {@link TestCluster} per test class, installs the class's
 * CRDs, sets its fields and resolves its parameters, and closes the cluster (deleting the test
 * namespaces) when the class is done. The cluster lives in the class's extension store, so JUnit
 * closes it even when a test or a lifecycle method fails.
 */
final class TestClusterExtension implements BeforeAllCallback, TestInstancePostProcessor, ParameterResolver {
    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(TestClusterExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Class<?> testClass = context.getRequiredTestClass();
        TestCluster cluster = TestCluster.start();
        context.getStore(STORE).put(TestCluster.class, cluster);
        RunbookIT settings = AnnotationSupport.findAnnotation(testClass, RunbookIT.class)
                .orElseThrow(() -> new IllegalStateException(testClass.getName() + ": annotate it with @RunbookIT"));
        for (String crd : settings.crds()) crdFiles(Path.of(crd)).forEach(cluster::installCrd);
        inject(testClass, null, cluster);
    }

    @Override
    public void postProcessTestInstance(Object test, ExtensionContext context) throws Exception {
        TestCluster cluster = cluster(context);
        inject(test.getClass(), test, cluster);
        for (Field field : AnnotationSupport.findAnnotatedFields(test.getClass(), TestNamespace.class)) {
            if (field.getType() != String.class || ModifierSupport.isStatic(field)) {
                throw new IllegalStateException(field + ": @TestNamespace goes on an instance field of type String");
            }
            set(field, test, cluster.newNamespace(field.getAnnotation(TestNamespace.class).value()));
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == TestCluster.class || type == KubernetesClient.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        TestCluster cluster = cluster(context);
        return parameter.getParameter().getType() == TestCluster.class ? cluster : cluster.client();
    }

    /** The cluster of the test's class: test contexts find it in their parent's store. */
    private static TestCluster cluster(ExtensionContext context) {
        TestCluster cluster = context.getStore(STORE).get(TestCluster.class, TestCluster.class);
        if (cluster == null) throw new IllegalStateException("no test cluster: is the class annotated with @RunbookIT?");
        return cluster;
    }

    /** The file itself, or each .yaml file of a directory in name order. */
    static List<Path> crdFiles(Path crd) {
        if (!Files.isDirectory(crd)) return List.of(crd);
        try (Stream<Path> files = Files.list(crd)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".yaml")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("@RunbookIT(crds): cannot list " + crd, e);
        }
    }

    /** Sets the static fields (no {@code test} yet) or the instance fields of type TestCluster or KubernetesClient. */
    private static void inject(Class<?> testClass, Object test, TestCluster cluster) throws IllegalAccessException {
        for (Field field : ReflectionSupport.findFields(testClass, field -> ModifierSupport.isStatic(field) == (test == null)
                && !ModifierSupport.isFinal(field), HierarchyTraversalMode.TOP_DOWN)) {
            if (field.getType() == TestCluster.class) set(field, test, cluster);
            if (field.getType() == KubernetesClient.class) set(field, test, cluster.client());
        }
    }

    private static void set(Field field, Object target, Object value) throws IllegalAccessException {
        field.setAccessible(true);
        field.set(target, value);
    }
}
