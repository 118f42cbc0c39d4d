package dev.runbook.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code runbook} script at the project's root: what a command prints on standard output is the
 * command's alone, so that {@code runbook pack ... | kubectl apply -f -} gets YAML and nothing else. The
 * JVM's own warnings go to standard error: a class-data archive written where the checkout was before
 * it moved (or was copied) fails to load, and the JVM said so on standard output, in front of the
 * ConfigMap.
 */
class RunbookScriptTest {
    /**
     * Stands for the runbook jar: prints one line of YAML, having loaded picocli, whose classes are of Java 5
     * (the class-data archive leaves them out, and the JVM says so about each while it writes the archive).
     */
    public static final class PrintsYaml {
        public static void main(String[] args) {
            new picocli.CommandLine(picocli.CommandLine.Model.CommandSpec.create());
            System.out.println("kind: ConfigMap");
        }
    }

    @Test
    void aClassDataArchiveLeftFromAnotherPlaceWarnsOnStandardErrorNotInTheOutput(@TempDir Path dir) throws Exception {
        Path checkout = project(dir.resolve("checkout"));
        Result first = run(checkout, "pack");
        assertThat(first.out()).isEqualTo("kind: ConfigMap\n");
        assertThat(first.err()).as("writing the archive is silent, on either stream").isEmpty();
        assertThat(checkout.resolve("cli/target/runbook.jsa")).as("the first command writes the archive").isRegularFile();

        Path moved = Files.move(checkout, dir.resolve("moved"));
        Result again = run(moved, "pack");
        assertThat(again.out()).isEqualTo("kind: ConfigMap\n");
        assertThat(again.err()).as("the JVM still says why it runs without the archive").contains("shared archive");
    }

    /** The script and a jar in the layout of a checkout, without the sources (so the jar is never stale). */
    private static Path project(Path root) throws Exception {
        Files.createDirectories(root.resolve("cli/target"));
        Path script = Files.copy(repository().resolve("runbook"), root.resolve("runbook"), StandardCopyOption.COPY_ATTRIBUTES);
        assertThat(Files.isExecutable(script)).isTrue();
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, PrintsYaml.class.getName());
        String entry = PrintsYaml.class.getName().replace('.', '/') + ".class";
        Path picocli = Path.of(picocli.CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (JarOutputStream jar = new JarOutputStream(Files.newOutputStream(root.resolve("cli/target/runbook.jar")), manifest);
             InputStream bytes = PrintsYaml.class.getClassLoader().getResourceAsStream(entry);
             JarFile library = new JarFile(picocli.toFile())) {
            jar.putNextEntry(new JarEntry(entry));
            bytes.transferTo(jar);
            jar.closeEntry();
            for (JarEntry classFile : java.util.Collections.list(library.entries())) {
                if (!classFile.getName().endsWith(".class") || classFile.getName().startsWith("META-INF/")) continue;
                jar.putNextEntry(new JarEntry(classFile.getName()));
                library.getInputStream(classFile).transferTo(jar);
                jar.closeEntry();
            }
        }
        return root;
    }

    private record Result(String out, String err) {}

    private static Result run(Path checkout, String command) throws IOException, InterruptedException {
        Path err = Files.createTempFile("runbook-script", ".err");
        Process process = new ProcessBuilder(checkout.resolve("runbook").toString(), command)
                .redirectError(err.toFile()).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(Files.readString(err)).isZero();
        return new Result(out, Files.readString(err));
    }

    private static Path repository() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("runbook"))) dir = dir.getParent();
        if (dir == null) throw new IllegalStateException("run from inside the project checkout");
        return dir;
    }
}
