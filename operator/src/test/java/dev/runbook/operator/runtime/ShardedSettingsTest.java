package dev.runbook.operator.runtime;

import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.compile.BundleCompiler;
import dev.runbook.engine.decide.DecidingBundle;
import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.shard.Sharder;
import dev.runbook.operator.shard.ShardingLoop;
import dev.runbook.operator.testkit.GreeterBundles;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The runtime's sharding wiring without an API server: sharding refuses to run without the leader Lease
 * (nobody would assign the primaries) or under a member name that is not a label value, and the leader's
 * sharders follow the running bundles' primary kinds, one per kind, the same instance while it stays.
 */
class ShardedSettingsTest {
    @TempDir
    Path work;

    @Test
    void shardsNeedTheLeaderLease() {
        assertThatThrownBy(() -> new OperatorRuntime.Settings(List.of(), Set.of(), null, null, Policy.DEFAULT, null, 4,
                new OperatorRuntime.Shards("replica-a", ShardingLoop.Timing.DEFAULT)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sharding needs the leader Lease");
        assertThatThrownBy(() -> new OperatorRuntime.Shards("replica a", ShardingLoop.Timing.DEFAULT))
                .hasMessageContaining("'replica a' is not a label value");
    }

    @Test
    void oneSharderPerRunningPrimaryKindTheSameWhileTheKindStays() {
        DecidingBundle webApps = BundleCompiler.compile(BundleLoader.load(GreeterBundles.GREETER));
        DecidingBundle greeters = BundleCompiler.compile(BundleLoader.load(
                GreeterBundles.renamed(GreeterBundles.asGreeterKind(GreeterBundles.greeter(work, "other", "hi")), "greeter-other")));
        List<DecidingBundle> running = new CopyOnWriteArrayList<>(List.of(webApps));
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(new ConfigBuilder().withMasterUrl("http://127.0.0.1:1").build()).build()) {
            PrimarySharders sharders = new PrimarySharders(client, Set.of("apps"), () -> List.copyOf(running));
            List<Sharder> first = sharders.get();
            assertThat(first).hasSize(1);
            assertThat(sharders.get()).as("the same kind, the same sharder: the loop sees no change").isEqualTo(first);

            running.add(greeters);
            List<Sharder> both = sharders.get();
            assertThat(both).hasSize(2).startsWith(first.get(0));
            running.add(webApps);
            assertThat(sharders.get()).as("one per kind").isEqualTo(both);
            running.remove(greeters);
            assertThat(sharders.get()).isEqualTo(first);
        }
    }
}
