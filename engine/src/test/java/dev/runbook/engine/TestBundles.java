package dev.runbook.engine;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The bundles under src/test/resources/bundles, compiled once per test run. */
public final class TestBundles {
    private static final Map<String, CompiledBundle> COMPILED = new ConcurrentHashMap<>();

    private TestBundles() {}

    public static Path directory(String name) {
        try {
            return Path.of(TestBundles.class.getResource("/bundles/" + name + "/bundle.yaml").toURI()).getParent();
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalArgumentException("no test bundle " + name, e);
        }
    }

    public static CompiledBundle compiled(String name) {
        return COMPILED.computeIfAbsent(name, n -> BundleCompiler.compile(BundleLoader.load(directory(n))));
    }
}
