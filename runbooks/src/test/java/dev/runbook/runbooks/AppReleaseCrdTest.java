package dev.runbook.runbooks;

import com.networknt.schema.Error;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The AppRelease CRD's schema: every sample release is accepted, and invalid specs are refused naming the field. */
class AppReleaseCrdTest {
    private static final Path BUNDLE = Path.of("app-release");

    private static List<Error> validate(Map<String, Object> release) throws IOException {
        return CrdSchema.of(BUNDLE.resolve("crds/appreleases.apps.runbook.dev.yaml")).validate(release);
    }

    @Test
    void everySampleReleaseIsValid() throws IOException {
        List<Map<String, Object>> releases = CrdSchema.samplesOfKind(BUNDLE, "AppRelease");
        assertThat(releases).hasSizeGreaterThanOrEqualTo(3);
        for (Map<String, Object> release : releases) {
            assertThat(validate(release)).as("%s", release.get("metadata")).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            replicas            | 0                        | replicas
            port                | 70000                    | port
            image               | Registry/Shop            | image
            image               | '{evil:1}'               | image
            version             | 1.0 beta                 | version
            version             | '-1'                     | version
            canary.replicas     | 0                        | replicas
            canary.promoteAfter | soon                     | promoteAfter
            canary.deadline     | 5                        | deadline
            """)
    void invalidSpecsAreRefusedNamingTheField(String path, String value, String field) throws IOException {
        Map<String, Object> release = new Yaml().load(Files.readString(BUNDLE.resolve("samples/release.yaml")));
        Object typed = value.matches("\\d+") && !path.startsWith("canary.deadline") ? (Object) Integer.parseInt(value) : value;
        CrdSchema.set(release, "spec." + path, typed);

        List<Error> errors = validate(release);
        assertThat(errors).as("spec.%s = %s must be refused", path, value).isNotEmpty();
        assertThat(errors.toString()).contains(field);
    }

    @Test
    void aReleaseWithoutAVersionIsRefused() throws IOException {
        Map<String, Object> release = new Yaml().load(Files.readString(BUNDLE.resolve("samples/release.yaml")));
        ((Map<?, ?>) release.get("spec")).remove("version");
        assertThat(validate(release).toString()).contains("version");
    }
}
