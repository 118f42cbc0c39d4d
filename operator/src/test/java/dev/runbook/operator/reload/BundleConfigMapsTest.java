package dev.runbook.operator.reload;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.operator.testkit.ProjectFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BundleConfigMapsTest {
    static final Path POSTGRES = ProjectFiles.of("runbooks/postgres-cluster");

    @TempDir
    Path work;

    @Test
    void aBundleBecomesFlatKeysAndComesBackTheSame() {
        Map<String, String> data = BundleConfigMaps.pack(POSTGRES);

        assertThat(data).containsKeys("bundle.yaml", "rules__failover.drl", "templates__statefulset.yaml",
                "tests__failover.yaml", "samples__cluster.yaml", "invariants__roles.drl");
        assertThat(data.keySet()).noneMatch(key -> key.startsWith("crds"));
        BundleConfigMaps.unpack("configmap/x/y", data, work);
        assertThat(BundleLoader.load(work).files()).isEqualTo(BundleLoader.load(POSTGRES).files());
        assertThat(work.resolve("tests/failover.yaml")).hasSameTextualContentAs(POSTGRES.resolve("tests/failover.yaml"));
        assertThat(work.resolve("invariants/safety.drl")).hasSameTextualContentAs(POSTGRES.resolve("invariants/safety.drl"));
    }

    /** An editor's files beside the bundle's are not the bundle's: not packed, not compiled. */
    @Test
    void anEditorsFilesAreNeitherPackedNorCompiled() throws IOException {
        Path bundle = dev.runbook.operator.testkit.GreeterBundles.greeter(work, "greeter", "hello");
        Files.writeString(bundle.resolve("rules/.#greet.drl"), "not a rule\n");
        Files.writeString(bundle.resolve("rules/greet.drl~"), "an older rule\n");
        Files.writeString(bundle.resolve("tests/4913"), "");

        assertThat(BundleConfigMaps.pack(bundle).keySet()).containsExactlyInAnyOrder("bundle.yaml", "rules__greet.drl", "tests__greet.yaml");
        assertThat(BundleLoader.load(bundle).files().keySet()).containsExactlyInAnyOrder("bundle.yaml", "rules/greet.drl");
    }

    @Test
    void aKeyThatIsNotABundleFileIsNamed() {
        assertThatThrownBy(() -> BundleConfigMaps.unpack("configmap/ops/b", Map.of("bundle.yaml", "name: b",
                "notes.txt", "x", "rules__..__..__etc__passwd", "x", "tests__", "x"), work))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("configmap/ops/b: key notes.txt: not a bundle file")
                .hasMessageContaining("key rules__..__..__etc__passwd: not a bundle file")
                .hasMessageContaining("key tests__: not a bundle file");
        assertThat(work).isEmptyDirectory();
    }

    @Test
    void aConfigMapWithoutBundleYamlIsRefused() {
        assertThatThrownBy(() -> BundleConfigMaps.unpack("configmap/ops/b", Map.of("rules__a.drl", "x"), work))
                .hasMessageContaining("configmap/ops/b: no key bundle.yaml");
    }

    @Test
    void aFileNameThatCannotBeAKeyIsNamed() throws IOException {
        Path bundle = work.resolve("b");
        Files.createDirectories(bundle.resolve("rules"));
        Files.writeString(bundle.resolve("bundle.yaml"), "name: b\n");
        Files.writeString(bundle.resolve("rules/my rules.drl"), "x");
        Files.writeString(bundle.resolve("rules/a__b.drl"), "x");

        assertThatThrownBy(() -> BundleConfigMaps.pack(bundle))
                .hasMessageContaining("rules/my rules.drl: cannot be a ConfigMap key")
                .hasMessageContaining("rules/a__b.drl: a file name with '__'");
    }

    @Test
    void aBundleTooBigForAConfigMapIsRefusedWithItsSize() throws IOException {
        Path bundle = work.resolve("big");
        Files.createDirectories(bundle.resolve("samples"));
        Files.writeString(bundle.resolve("bundle.yaml"), "name: big\n");
        Files.writeString(bundle.resolve("samples/huge.yaml"), "#".repeat(BundleConfigMaps.MAX_DATA_BYTES));

        assertThatThrownBy(() -> BundleConfigMaps.pack(bundle))
                .hasMessageContaining("more than the " + BundleConfigMaps.MAX_DATA_BYTES + " a bundle ConfigMap may carry");
    }
}
