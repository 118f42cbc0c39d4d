package dev.runbook.engine.policy;

import dev.runbook.engine.problem.InvalidInputException;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PolicyParserTest {
    @Test
    void bundleEntriesInheritWhatTheyDoNotSayFromTheDefaults() {
        Policy policy = PolicyParser.parse("policy.yaml", """
                defaults:
                  namespaces: [apps]
                  clusterScoped: [ClusterRole]
                bundles:
                  postgres-cluster:
                    namespaces: [databases, analytics]
                    kinds: [Pod, Job]
                """);
        BundlePolicy postgres = policy.forBundle("postgres-cluster");
        assertThat(postgres.namespaces()).isEqualTo(BundlePolicy.Namespaces.listed(Set.of("databases", "analytics")));
        assertThat(postgres.kinds()).containsExactlyInAnyOrder("Pod", "Job");
        assertThat(postgres.clusterScoped()).containsExactly("ClusterRole");
        BundlePolicy other = policy.forBundle("web-app");
        assertThat(other.namespaces().names()).containsExactly("apps");
        assertThat(other.declaredKinds()).isTrue();
        assertThat(policy.watchedNamespaces()).isEqualTo(Optional.of(Set.of("apps", "databases", "analytics")));
        assertThat(Policy.DEFAULT.watchedNamespaces()).isEmpty();
    }

    @Test
    void mistakesAreNamedWithTheirLine() {
        assertThatThrownBy(() -> PolicyParser.parse("policy.yaml", """
                bundles:
                  postgres-cluster:
                    namespace: [databases]
                """)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("policy.yaml:3:5: bundles.postgres-cluster.namespace: unknown key");
        assertThatThrownBy(() -> PolicyParser.parse("policy.yaml", """
                bundles:
                  postgres-cluster:
                    namespaces: [Databases]
                """)).hasMessageContaining("policy.yaml:3:18: bundles.postgres-cluster.namespaces: 'Databases' is not a namespace name");
        assertThatThrownBy(() -> PolicyParser.parse("policy.yaml", "defaults: {namespaces: everywhere}\n"))
                .hasMessageContaining("defaults.namespaces: 'everywhere' is neither primary nor a list");
        assertThatThrownBy(() -> PolicyParser.parse("policy.yaml", "defaults: {kinds: [pods]}\n"))
                .hasMessageContaining("'pods' is not a kind");
    }
}
