package dev.runbook.operator.command;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Where the commands keep compiled bundles, as the environment says. */
class BundleArgumentTest {
    @Test
    void theVariableNamesTheDirectoryOrTurnsTheCacheOff() {
        assertThat(BundleArgument.cacheDirectory(Map.of("RUNBOOK_BUNDLE_CACHE", "/tmp/bundles"))).isEqualTo(Path.of("/tmp/bundles"));
        assertThat(BundleArgument.cacheDirectory(Map.of("RUNBOOK_BUNDLE_CACHE", "off"))).isNull();
    }

    @Test
    void otherwiseTheUsersCacheDirectory() {
        assertThat(BundleArgument.cacheDirectory(Map.of("XDG_CACHE_HOME", "/var/cache/me")))
                .isEqualTo(Path.of("/var/cache/me/runbook/bundles"));
        assertThat(BundleArgument.cacheDirectory(Map.of()))
                .isEqualTo(Path.of(System.getProperty("user.home"), ".cache", "runbook", "bundles"));
    }
}
