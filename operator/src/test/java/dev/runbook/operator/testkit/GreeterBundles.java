package dev.runbook.operator.testkit;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Copies of src/test/resources/bundles/greeter, whose one rule writes a greeting into a WebApp's status,
 * edited per test: another greeting, a broken rule.
 */
public final class GreeterBundles {
    public static final Path GREETER = ProjectFiles.of("operator/src/test/resources/bundles/greeter");
    /** The kind the greeter reconciles (src/test/resources/bundles/web-app/crds). */
    public static final ResourceDefinitionContext WEB_APPS = testKind("WebApp", "webapps");
    /** The kind a greeter edited by {@link #asGreeterKind} reconciles (its crds/). */
    public static final ResourceDefinitionContext GREETERS = testKind("Greeter", "greeters");

    private GreeterBundles() {}

    /** A copy under {@code work/copy} whose rule, and scenario, greet with {@code word}. */
    public static Path greeter(Path work, String copy, String word) {
        Path target = work.resolve(copy);
        try (Stream<Path> files = Files.walk(GREETER)) {
            for (Path file : files.toList()) {
                Path to = target.resolve(GREETER.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(to);
                } else {
                    Files.writeString(to, Files.readString(file).replace("hello", word));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return target;
    }

    /** A copy whose rule does not compile: it reads a field Primary does not have (rules/greet.drl line 8). */
    public static Path broken(Path work, String copy) {
        Path bundle = greeter(work, copy, "hello");
        edit(bundle.resolve("rules/greet.drl"), "$app : Primary()", "$app : Primary(nmae == \"shop\")");
        return bundle;
    }

    /** The bundle reconciling Greeters instead of WebApps, its scenario too. */
    public static Path asGreeterKind(Path bundle) {
        edit(bundle.resolve("bundle.yaml"), "kind: WebApp\n  plural: webapps", "kind: Greeter\n  plural: greeters");
        edit(bundle.resolve("tests/greet.yaml"), "kind: WebApp", "kind: Greeter");
        return bundle;
    }

    /** The bundle under another name. */
    public static Path renamed(Path bundle, String name) {
        edit(bundle.resolve("bundle.yaml"), "name: greeter\n", "name: " + name + "\n");
        return bundle;
    }

    private static ResourceDefinitionContext testKind(String kind, String plural) {
        return new ResourceDefinitionContext.Builder().withGroup("test.runbook.dev").withVersion("v1").withKind(kind)
                .withPlural(plural).withNamespaced(true).build();
    }

    /** Replaces {@code from}, which the file must hold, with {@code to}. */
    public static void edit(Path file, String from, String to) {
        try {
            String text = Files.readString(file);
            assertThat(text).as("%s holds %s", file, from).contains(from);
            Files.writeString(file, text.replace(from, to));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
