package dev.runbook.operator.testkit;

import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An integration test class run against an API server that {@link TestClusterExtension} owns: the
 * embedded one by default, or the cluster named by {@value TestCluster#KUBECONFIG_PROPERTY} /
 * {@value TestCluster#KUBECONFIG_VARIABLE} (see docs/testing.md). One cluster per class, with
 * {@link #crds()} installed before the class's {@code @BeforeAll} methods run and closed after its
 * {@code @AfterAll} methods; the namespaces its tests asked for with {@link TestNamespace} are
 * deleted then.
 *
 * <p>Into the class: fields of type {@link TestCluster} and {@code KubernetesClient} are set (static
 * ones before {@code @BeforeAll}, instance ones before {@code @BeforeEach}), a {@link TestNamespace}
 * {@code String} field gets a new namespace for each test, and a parameter of either type (of a test,
 * lifecycle method or constructor) is resolved.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(TestClusterExtension.class)
public @interface RunbookIT {
    /**
     * CRD files to install, relative to the operator module; a directory stands for each of its
     * {@code .yaml} files, in name order.
     */
    String[] crds() default {};
}
