package dev.runbook.operator.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On a {@code String} field of a {@link RunbookIT} class: set, before each test, to the name of a new
 * namespace, {@code PREFIX-} and eight random characters. The namespaces are deleted when the class's
 * cluster closes.
 */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface TestNamespace {
    /** The namespace's prefix, e.g. {@code "web"}. */
    String value();
}
