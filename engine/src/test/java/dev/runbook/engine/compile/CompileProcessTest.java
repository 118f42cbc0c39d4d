package dev.runbook.engine.compile;

import dev.runbook.engine.TestBundles;
import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.problem.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The operator's compile in a child JVM: the same bundle, the same errors, and a fallback that changes nothing. */
class CompileProcessTest {
    @TempDir
    Path cacheDir;

    private static BundleSource bundle(String name) {
        return BundleLoader.load(TestBundles.directory(name));
    }

    @Test
    void theChildStoresTheBundleAndTheParentReadsIt() {
        BundleSource source = bundle("example");

        assertThat(CompileProcess.compileInto(cacheDir, source)).isEqualTo(CompileProcess.Outcome.STORED);
        assertThat(new CompiledBundleCache(cacheDir).cached(source)).as("the child's entry").isPresent();
        CompiledBundleCache.Loaded loaded = new CompiledBundleCache(cacheDir).loadCompilingApart(source);

        CompiledBundle inProcess = BundleCompiler.compile(source);
        assertThat(loaded.bundle().ruleNames()).isEqualTo(inProcess.ruleNames()).isNotEmpty();
        assertThat(loaded.bundle().version()).isEqualTo(inProcess.version());
        assertThat(loaded.bundle().warnings()).isEqualTo(inProcess.warnings());

        assertThat(loaded.fromCache()).isTrue();
    }

    /** The child compiles the parent's files, not the directory again: what the parent read is what runs. */
    @Test
    void theChildCompilesTheParentsSourceNotTheDirectory(@TempDir Path copy) throws IOException {
        BundleSource source = bundle("example");
        for (Map.Entry<String, String> file : source.files().entrySet()) {
            Path target = copy.resolve(file.getKey());
            Files.createDirectories(target.getParent());
            Files.writeString(target, file.getValue());
        }
        BundleSource read = BundleLoader.load(copy);
        Files.writeString(copy.resolve("rules/broken.drl"), "rule \"half\" when then");

        assertThat(CompileProcess.compileInto(cacheDir, read)).isEqualTo(CompileProcess.Outcome.STORED);

        assertThat(new CompiledBundleCache(cacheDir).cached(read).orElseThrow().ruleNames())
                .isEqualTo(BundleCompiler.compile(source).ruleNames());
    }

    @Test
    void aBundleWithErrorsFailsWithTheProblemsAnInProcessCompileReports() {
        for (String name : new String[] {"broken-syntax", "broken-type", "bad-template"}) {
            BundleSource source = bundle(name);
            InvalidInputException inProcess = catchThrowableOfType(() -> BundleCompiler.compile(source), InvalidInputException.class);
            assertThat(inProcess).as(name).isNotNull();

            InvalidInputException apart = catchThrowableOfType(
                    () -> CompileProcess.compileInto(cacheDir, source), InvalidInputException.class);

            assertThat(apart).as(name).isNotNull();
            assertThat(apart.getProblems()).as(name).isEqualTo(inProcess.getProblems()).isNotEmpty();
        }
    }

    /** A child that cannot store (here: the cache "directory" is a file) leaves the compile to this process. */
    @Test
    void whenTheChildCannotDoItsJobTheBundleIsCompiledHere() throws IOException {
        Path notADirectory = Files.writeString(cacheDir.resolve("a-file"), "");
        BundleSource source = bundle("example");
        assertThat(CompileProcess.compileInto(notADirectory, source)).isEqualTo(CompileProcess.Outcome.FAILED);

        CompiledBundleCache.Loaded loaded = new CompiledBundleCache(notADirectory).loadCompilingApart(source);

        assertThat(loaded.fromCache()).isFalse();
        assertThat(loaded.bundle().ruleNames()).isEqualTo(BundleCompiler.compile(source).ruleNames());
    }

    @Test
    void theChildRunsThisJavaOnThisClassPathWithNoMoreHeapThanThisProcess() {
        var command = CompileProcess.command(cacheDir, cacheDir.resolve("in"), cacheDir.resolve("out"));

        assertThat(command.get(0)).endsWith("java");
        assertThat(command).contains("-Xmx" + Runtime.getRuntime().maxMemory(), System.getProperty("java.class.path"),
                CompileProcess.class.getName());
    }
}
