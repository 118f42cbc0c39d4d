package dev.runbook.operator.testkit;

import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test (class or method) that starts sandboxed worker processes, as the operator does for bundles
 * from ConfigMaps. Before it runs, {@link SandboxCheck} starts one worker the way the operator's
 * start-up check does; where none can start (no bubblewrap, no unprivileged user namespaces) the test
 * is skipped with what to install, or fails with it when {@value SandboxCheck#REQUIRED_VARIABLE}=1,
 * as CI sets: there the boundary must be proven, never skipped.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(SandboxCheck.class)
public @interface NeedsSandbox {}
