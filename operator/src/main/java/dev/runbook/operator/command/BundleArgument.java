package dev.runbook.operator.command;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.compile.CompiledBundleCache;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Loads and compiles the bundle a command names; problems surface as {@code InvalidInputException}.
 * A bundle compiled before, unchanged, by this same build, comes from the compiled-bundle cache
 * (docs/cli.md#the-compiled-bundle-cache): {@code RUNBOOK_BUNDLE_CACHE} names its directory, or
 * {@code off}; by default {@code $XDG_CACHE_HOME/runbook/bundles}, else {@code ~/.cache/runbook/bundles}.
 */
public final class BundleArgument {
    static final String CACHE_VARIABLE = "RUNBOOK_BUNDLE_CACHE";

    private BundleArgument() {}

    public static CompiledBundle compile(Path directory) {
        return load(directory).bundle();
    }

    /** The bundle of these files (e.g. a bundle with an explanation's queries added), through the compiled-bundle cache. */
    public static CompiledBundle compile(BundleSource source) {
        Path cache = cacheDirectory(System.getenv());
        return cache == null ? BundleCompiler.compile(source) : new CompiledBundleCache(cache).load(source).bundle();
    }

    /** The compiled bundle, and whether it came from the compiled-bundle cache ({@code run} says which at start-up). */
    public static CompiledBundleCache.Loaded load(Path directory) {
        return load(directory, CompiledBundleCache::load);
    }

    /**
     * As {@link #load}, for the operator: a bundle the cache does not hold is compiled in a child process
     * and read from the cache, so that the long-lived process never loads the compilers
     * (docs/performance.md#the-operators-memory). With the cache off it is compiled here.
     */
    public static CompiledBundleCache.Loaded loadCompilingApart(Path directory) {
        return load(directory, CompiledBundleCache::loadCompilingApart);
    }

    private static CompiledBundleCache.Loaded load(Path directory,
            BiFunction<CompiledBundleCache, BundleSource, CompiledBundleCache.Loaded> throughTheCache) {
        var source = BundleLoader.load(directory);
        Path cache = cacheDirectory(System.getenv());
        return cache == null ? new CompiledBundleCache.Loaded(BundleCompiler.compile(source), false)
                : throughTheCache.apply(new CompiledBundleCache(cache), source);
    }

    /** The cache directory the environment asks for, or null when it turns the cache off. */
    static Path cacheDirectory(Map<String, String> environment) {
        String configured = environment.get(CACHE_VARIABLE);
        if ("off".equals(configured)) return null;
        if (configured != null && !configured.isBlank()) return Path.of(configured);
        String xdg = environment.get("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("runbook").resolve("bundles");
    }
}
