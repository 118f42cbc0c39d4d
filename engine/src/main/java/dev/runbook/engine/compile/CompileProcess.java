package dev.runbook.engine.compile;

import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.containment.FirstLine;
import dev.runbook.engine.files.FileTrees;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Compiles a bundle into the {@link CompiledBundleCache} in a child JVM, for a long-lived process (the
 * operator) that then reads the compiled bundle from the cache. Compiling loads the DRL and Java
 * compilers' classes and leaves their tables live for the process's whole life (about 58 MB resident
 * on an idle operator, docs/performance.md#the-operators-memory); a child takes them away when it exits.
 *
 * <p>The child compiles exactly the parent's {@link BundleSource} (handed over in a file, not read again
 * from the bundle directory). A bundle with errors comes back as the same problems, so the parent
 * reports them as an in-process compile would. Anything else that goes wrong with the child (no
 * {@code java} to start, a crash, a timeout) is {@link Outcome#FAILED}: the caller compiles in
 * process, so the child can make the operator smaller, never different.
 */
public final class CompileProcess {
    private static final Logger LOG = LoggerFactory.getLogger(CompileProcess.class);
    /** Exit code of a child whose bundle has errors (its problems are in the result file). */
    static final int PROBLEMS = 2;
    /** A compile takes seconds to tens of seconds on a loaded machine; past this the child is given up. */
    static final long TIMEOUT_SECONDS = 600;

    /** What became of a compile in a child process. */
    public enum Outcome { STORED, FAILED }

    private CompileProcess() {}

    /**
     * Compiles {@code source} in a child JVM that stores it in the cache at {@code cacheDirectory}.
     *
     * @return {@link Outcome#STORED} when the child stored it, {@link Outcome#FAILED} when the child
     *     could not do its job for another reason than the bundle's own errors
     * @throws InvalidInputException the bundle's errors, as the child's compile found them
     */
    public static Outcome compileInto(Path cacheDirectory, BundleSource source) {
        Path work = null;
        try {
            work = Files.createTempDirectory("runbook-compile");
            Path request = work.resolve("source.bin");
            Path result = work.resolve("problems.bin");
            Path log = work.resolve("child.log");
            try (ObjectOutputStream out = new ObjectOutputStream(new BufferedOutputStream(Files.newOutputStream(request)))) {
                out.writeUTF(source.origin());
                out.writeObject(new TreeMap<>(source.files()));
            }
            Process child = new ProcessBuilder(command(cacheDirectory, request, result))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!child.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                child.destroyForcibly();
                LOG.debug("the compile process of {} did not finish in {} s", source.origin(), TIMEOUT_SECONDS);
                return Outcome.FAILED;
            }
            int code = child.exitValue();
            if (code == 0) return Outcome.STORED;
            if (code == PROBLEMS && Files.isRegularFile(result)) throw new InvalidInputException(readProblems(result));
            LOG.debug("the compile process of {} exited with {}: {}", source.origin(), code, tail(log));
            return Outcome.FAILED;
        } catch (IOException | ClassNotFoundException | RuntimeException e) {
            if (e instanceof InvalidInputException invalid) throw invalid;
            LOG.debug("no compile process for {}: {}", source.origin(), e.toString());
            return Outcome.FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Outcome.FAILED;
        } finally {
            FileTrees.deleteQuietly(work);
        }
    }

    /**
     * This JVM's {@code java} and class path, running {@link #main}. Short-lived like {@code runbook lint}:
     * the serial collector, the first JIT tier, and no larger heap than the parent may take.
     */
    static List<String> command(Path cacheDirectory, Path request, Path result) {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> command = new ArrayList<>(List.of(java, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Xmx" + Runtime.getRuntime().maxMemory()));
        // The child compiles as this process would: with the first-line checks off only where a test turned them off here.
        if (!FirstLine.enabled()) command.add("-D" + FirstLine.PROPERTY + "=off");
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), CompileProcess.class.getName(),
                cacheDirectory.toString(), request.toString(), result.toString()));
        return command;
    }

    /** The child: {@code CACHE_DIR SOURCE_FILE PROBLEMS_FILE}; exit 0 stored, 2 the bundle's problems, else not stored. */
    public static void main(String[] args) throws Exception {
        BundleSource source;
        try (ObjectInputStream in = new ObjectInputStream(new BufferedInputStream(Files.newInputStream(Path.of(args[1]))))) {
            String origin = in.readUTF();
            @SuppressWarnings("unchecked")
            Map<String, String> files = (Map<String, String>) in.readObject();
            source = new BundleSource(origin, files);
        }
        CompiledBundleCache cache = new CompiledBundleCache(Path.of(args[0]));
        boolean stored;
        try {
            stored = cache.store(BundleCompiler.compile(source));
        } catch (InvalidInputException e) {
            try (ObjectOutputStream out = new ObjectOutputStream(new BufferedOutputStream(Files.newOutputStream(Path.of(args[2]))))) {
                out.writeObject(new ArrayList<>(e.getProblems()));
            }
            System.exit(PROBLEMS);
            return;
        }
        System.exit(stored ? 0 : 1);
    }

    @SuppressWarnings("unchecked")
    private static List<Problem> readProblems(Path result) throws IOException, ClassNotFoundException {
        try (ObjectInputStream in = new ObjectInputStream(new BufferedInputStream(Files.newInputStream(result)))) {
            return (List<Problem>) in.readObject();
        }
    }

    private static String tail(Path log) {
        try {
            String text = Files.readString(log);
            return text.length() <= 2000 ? text : text.substring(text.length() - 2000);
        } catch (IOException e) {
            return "(no output)";
        }
    }
}
