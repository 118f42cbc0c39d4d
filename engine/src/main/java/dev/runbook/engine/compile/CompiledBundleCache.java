package dev.runbook.engine.compile;

import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.bundle.BundleSpecParser;
import dev.runbook.engine.containment.CodeContainment;
import dev.runbook.engine.containment.FirstLine;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import dev.runbook.engine.template.TemplateSet;
import org.drools.base.common.DroolsObjectInputStream;
import org.drools.base.common.DroolsObjectOutputStream;
import org.drools.core.impl.RuleBaseFactory;
import org.drools.kiesession.rulebase.InternalKnowledgeBase;
import org.drools.kiesession.rulebase.KnowledgeBaseFactory;
import org.drools.wiring.api.classloader.ProjectClassLoader;
import org.kie.api.definition.KiePackage;
import org.kie.memorycompiler.StoreClassLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Compiled bundles kept on disk, so that {@code runbook lint}, {@code plan} and {@code test} on an
 * unchanged bundle skip the DRL compiler (most of their cost). One file per bundle content and engine
 * build: {@code <dir>/<sha256 of the engine build and every compiled file>.kbase}. What is stored is
 * the output of a successful {@link BundleCompiler#compile} — everything its checks let through —
 * as Drools' own serialized packages plus the classes it generated (declared types, consequences).
 *
 * <p>Safe under concurrent use: a file is written under a temporary name and renamed into place, so a
 * reader sees a whole file or none; two writers of one key write the same content. Any change to a
 * compiled file, or another engine build (the jar's path, size and time), is another key. A file that
 * cannot be read is deleted and the bundle compiled afresh: the cache can make a command faster, never
 * different. A bundle with errors is never stored, so its errors are reported on every run.
 */
public final class CompiledBundleCache {
    private static final Logger LOG = LoggerFactory.getLogger(CompiledBundleCache.class);
    /** Bumped when the file layout changes. */
    private static final String FORMAT = "runbook-kbase-1";
    /** Entries kept; each is a few hundred KB. */
    static final int MAX_ENTRIES = 32;

    private final Path directory;

    public CompiledBundleCache(Path directory) {
        this.directory = directory;
    }

    /** A compiled bundle, and whether it was read from the cache rather than compiled. */
    public record Loaded(CompiledBundle bundle, boolean fromCache) {}

    /** The bundle from the cache, or compiled (and stored) when the cache has no entry for its content. */
    public CompiledBundle compile(BundleSource source) {
        return load(source).bundle();
    }

    /** As {@link #compile}, saying which it was ({@code runbook run} prints it at start-up). */
    public Loaded load(BundleSource source) {
        Path file = file(source);
        Optional<CompiledBundle> cached = cached(file, source);
        if (cached.isPresent()) return new Loaded(cached.get(), true);
        return compileHere(file, source);
    }

    /**
     * As {@link #load}, but a bundle the cache does not hold is compiled in a child JVM
     * ({@link CompileProcess}) and then read from the cache, so that this process never loads the
     * compilers: for the operator, which lives long. Its errors are the same; when the child cannot do
     * its job for another reason, the bundle is compiled here as {@link #load} does.
     */
    public Loaded loadCompilingApart(BundleSource source) {
        Path file = file(source);
        Optional<CompiledBundle> cached = cached(file, source);
        if (cached.isPresent()) return new Loaded(cached.get(), true);
        if (CompileProcess.compileInto(directory, source) == CompileProcess.Outcome.STORED) {
            Optional<CompiledBundle> compiled = cached(file, source);
            if (compiled.isPresent()) return new Loaded(compiled.get(), false);
        }
        return compileHere(file, source);
    }

    /** Compiles in this process and stores the result under {@code file}, the source's key already computed. */
    private Loaded compileHere(Path file, BundleSource source) {
        CompiledBundle compiled = BundleCompiler.compile(source);
        store(file, compiled);
        return new Loaded(compiled, false);
    }

    /** Stores a compiled bundle under its content's key, saying whether it could: a cache that cannot be written is only slower. */
    boolean store(CompiledBundle compiled) {
        return store(file(compiled.source()), compiled);
    }

    private boolean store(Path file, CompiledBundle compiled) {
        try {
            write(file, compiled);
            prune();
            return true;
        } catch (IOException | RuntimeException e) {
            // Only slower, never wrong: but every command compiles it again, so say so.
            LOG.warn("could not store bundle {} in the compiled-bundle cache {}: {}; each command compiles it again "
                    + "(RUNBOOK_BUNDLE_CACHE names another directory, or off; docs/cli.md)", compiled, directory, e.toString());
            return false;
        }
    }

    /** The stored compile of exactly this content by this engine build, if there is a readable one. */
    public Optional<CompiledBundle> cached(BundleSource source) {
        return cached(file(source), source);
    }

    private Optional<CompiledBundle> cached(Path file, BundleSource source) {
        if (!Files.isRegularFile(file)) return Optional.empty();
        try {
            return Optional.of(read(file, source));
        } catch (IOException | ClassNotFoundException | RuntimeException e) {
            LOG.debug("ignoring unreadable cache entry {}: {}", file, e.toString());
            deleteQuietly(file);
            return Optional.empty();
        }
    }

    private Path file(BundleSource source) {
        return directory.resolve(key(source) + ".kbase");
    }

    /** Keeps the newest {@link #MAX_ENTRIES} entries: old bundle versions and engine builds go. */
    private void prune() throws IOException {
        List<Path> entries;
        try (Stream<Path> files = Files.list(directory)) {
            entries = files.filter(f -> f.getFileName().toString().endsWith(".kbase")).collect(Collectors.toList());
        }
        if (entries.size() <= MAX_ENTRIES) return;
        entries.sort(Comparator.comparing(CompiledBundleCache::modified).reversed());
        entries.subList(MAX_ENTRIES, entries.size()).forEach(CompiledBundleCache::deleteQuietly);
    }

    private static long modified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    static String key(BundleSource source) {
        MessageDigest digest = sha256();
        update(digest, FORMAT);
        update(digest, engineBuild());
        // A test may compile with the first-line checks off: what that stores is never read with them on.
        update(digest, FirstLine.enabled() ? "checked" : "unchecked");
        source.files().forEach((path, text) -> {
            update(digest, path);
            update(digest, text);
        });
        return HexFormat.of().formatHex(digest.digest());
    }

    /**
     * This engine build: where its classes come from, with size and time, so that a rebuilt jar (a new
     * version, or a development build of the same version) never reads what another build stored.
     */
    public static String engineBuild() {
        try {
            Path code = Path.of(BundleCompiler.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path identity = Files.isDirectory(code)
                    ? code.resolve(BundleCompiler.class.getName().replace('.', '/') + ".class") : code;
            return code + "|" + Files.size(identity) + "|" + Files.getLastModifiedTime(identity).toMillis();
        } catch (Exception e) {
            // Not knowing the build means never matching a stored one.
            return "unknown-" + System.nanoTime();
        }
    }

    private void write(Path file, CompiledBundle compiled) throws IOException {
        InternalKnowledgeBase kieBase = (InternalKnowledgeBase) compiled.kieBase();
        // A bundle that declares no type has generated no class into the store (it is null then): nothing to carry.
        Map<String, byte[]> generated = ((StoreClassLoader) kieBase.getRootClassLoader()).getStore();
        Map<String, byte[]> classes = generated == null ? new HashMap<>() : new HashMap<>(generated);
        Files.createDirectories(directory);
        Path temporary = Files.createTempFile(directory, file.getFileName().toString(), ".tmp");
        try {
            try (ObjectOutputStream out = new DroolsObjectOutputStream(new BufferedOutputStream(Files.newOutputStream(temporary)))) {
                out.writeUTF(FORMAT);
                out.writeObject(classes);
                out.writeObject(new ArrayList<>(kieBase.getKiePackages()));
                out.writeObject(new ArrayList<>(compiled.warnings()));
            }
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            deleteQuietly(temporary);
        }
    }

    @SuppressWarnings("unchecked")
    private static CompiledBundle read(Path file, BundleSource source) throws IOException, ClassNotFoundException {
        Map<String, byte[]> classes;
        InternalKnowledgeBase kieBase;
        List<Problem> warnings;
        try (ObjectInputStream header = new ObjectInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            if (!FORMAT.equals(header.readUTF())) throw new IOException("another cache format");
            classes = (Map<String, byte[]>) header.readObject();
        }
        // The generated classes go into the new KieBase's class loader before the packages that name them.
        ProjectClassLoader loader = ProjectClassLoader.createProjectClassLoader(BundleCompiler.class.getClassLoader(), classes);
        kieBase = KnowledgeBaseFactory.newKnowledgeBase(
                CodeContainment.withoutJitting(RuleBaseFactory.newKnowledgeBaseConfiguration(null, loader)));
        try (ObjectInputStream in = new DroolsObjectInputStream(new BufferedInputStream(Files.newInputStream(file)),
                kieBase.getRootClassLoader())) {
            in.readUTF();
            in.readObject();
            kieBase.addPackages((Collection<KiePackage>) in.readObject());
            warnings = (List<Problem>) in.readObject();
        }
        List<Problem> errors = new ArrayList<>();
        TemplateSet templates = TemplateSet.compile(source.filesUnder(TemplateSet.DIRECTORY, ".yaml"), errors);
        if (!errors.isEmpty()) throw new InvalidInputException(errors);
        return new CompiledBundle(BundleSpecParser.parse(source.file(BundleSpecParser.FILE)), source,
                source.contentHash(), kieBase, templates, BundleCompiler.ruleNames(kieBase), warnings);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    private static void update(MessageDigest digest, String text) {
        digest.update(text.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // A leftover temporary file is harmless: no reader looks for it.
        }
    }
}
