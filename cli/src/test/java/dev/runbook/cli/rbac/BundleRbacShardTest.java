package dev.runbook.cli.rbac;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With shards on, the sharder labels every secondary of a kind that follows one primary with its
 * primary's member (docs/sharding.md#secondaries): the derived rules grant {@code patch} on such a kind
 * even when the bundle only reads it, and not on a kind watched whole.
 */
class BundleRbacShardTest {
    @TempDir
    Path bundle;

    @Test
    void aReadOnlyKindThatFollowsOnePrimaryIsPatchableAndASharedOneIsNot() throws Exception {
        Files.writeString(bundle.resolve("bundle.yaml"), """
                name: reader
                version: 0.1.0
                primary:
                  apiVersion: test.runbook.dev/v1
                  kind: WebApp
                  plural: webapps
                secondaries:
                  - apiVersion: v1
                    kind: Secret
                    mapping: owner
                  - apiVersion: v1
                    kind: Pod
                    mapping: labels
                    selector:
                      app.kubernetes.io/instance: "{name}"
                  - apiVersion: v1
                    kind: ConfigMap
                    mapping: labels
                    selector:
                      tier: shared
                """);
        Map<String, Set<String>> needed = BundleRbac.needed(bundle);
        assertThat(needed.get("/secrets")).containsExactlyInAnyOrder("get", "list", "watch", "patch");
        assertThat(needed.get("/pods")).containsExactlyInAnyOrder("get", "list", "watch", "patch");
        assertThat(needed.get("/configmaps")).as("belongs to every primary of its namespace: no label, no patch")
                .containsExactlyInAnyOrder("get", "list", "watch");
    }
}
