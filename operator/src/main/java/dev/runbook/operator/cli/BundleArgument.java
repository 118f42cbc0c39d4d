package dev.runbook.operator.cli;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.compile.CompiledBundle;

import java.nio.file.Path;

/** Loads and compiles the bundle a command names; problems surface as {@code InvalidInputException}. */
final class BundleArgument {
    private BundleArgument() {}

    static CompiledBundle compile(Path directory) {
        return BundleCompiler.compile(BundleLoader.load(directory));
    }
}
