package dev.runbook.engine.policy;

import dev.runbook.engine.containment.ContainmentLimits;
import dev.runbook.engine.problem.InvalidInputException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
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
    void imageBundlesRunInProcessAndConfigMapBundlesIsolatedUnlessThePolicySaysOtherwise() {
        assertThat(Policy.DEFAULT.isolation()).isEqualTo(Isolation.DEFAULT);
        assertThat(Isolation.DEFAULT.images()).isEqualTo(Isolation.Trust.IN_PROCESS);
        assertThat(Isolation.DEFAULT.configMaps()).isEqualTo(Isolation.Trust.ISOLATED);
        assertThat(Isolation.DEFAULT.worker()).isEqualTo(Isolation.Worker.SANDBOX);

        Policy policy = PolicyParser.parse("policy.yaml", """
                isolation:
                  images: isolated
                  configMaps: isolated
                  worker: unix:/run/runbook/worker.sock
                  workerHeapMiB: 384
                  workerCpu: 30m
                """);

        assertThat(policy.isolation()).isEqualTo(new Isolation(Isolation.Trust.ISOLATED, Isolation.Trust.ISOLATED,
                Isolation.Worker.SOCKET, java.nio.file.Path.of("/run/runbook/worker.sock"), 384, Duration.ofMinutes(30)));
        assertThat(policy.reserving("ops").isolation()).isEqualTo(policy.isolation());
        assertThat(policy.forScenarios().isolation()).isEqualTo(policy.isolation());
    }

    @Test
    void anIsolationWordThePolicyDoesNotKnowIsRefusedAtItsLine() {
        assertThatThrownBy(() -> PolicyParser.parse("policy.yaml", """
                isolation:
                  configMaps: trusted
                """)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("policy.yaml:2").hasMessageContaining("'trusted' is neither in-process nor isolated");
        assertThatThrownBy(() -> PolicyParser.parse("policy.yaml", """
                isolation:
                  worker: docker
                """)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("policy.yaml:2").hasMessageContaining("is not sandbox, process or unix:/path");
    }

    @Test
    void ruleLimitsComeFromThePolicyFileAndTheDefaultsWhereItIsSilent() {
        Policy policy = PolicyParser.parse("policy.yaml", """
                limits:
                  cycleDeadline: 2s
                  cycleMemoryMiB: 128
                """);
        assertThat(policy.limits()).isEqualTo(new ContainmentLimits(Duration.ofSeconds(2),
                ContainmentLimits.DEFAULT_SCENARIO_DEADLINE, ContainmentLimits.DEFAULT_VETTING_DEADLINE, 128L * 1024 * 1024));
        assertThat(PolicyParser.parse("policy.yaml", "bundles: {}\n").limits()).isEqualTo(ContainmentLimits.defaults());
        assertThat(Policy.DEFAULT.limits()).isEqualTo(ContainmentLimits.defaults());
    }

    @Test
    void aSystemPropertyOverridesThePolicyFilesLimit() {
        Policy policy = PolicyParser.parse("policy.yaml", "limits: {cycleDeadline: 2s, vettingDeadline: 5m}\n");
        String before = System.getProperty(ContainmentLimits.CYCLE_PROPERTY);
        System.setProperty(ContainmentLimits.CYCLE_PROPERTY, "750ms");
        try {
            assertThat(policy.containment().cycleDeadline()).isEqualTo(Duration.ofMillis(750));
            assertThat(policy.containment().vettingDeadline()).isEqualTo(Duration.ofMinutes(5));
            assertThat(policy.containment().describe(policy.limits())).containsExactly(
                    "limits.cycleDeadline: 750ms (overridden by RUNBOOK_CYCLE_DEADLINE or its system property; the policy says 2s)",
                    "limits.scenarioDeadline: 30s",
                    "limits.vettingDeadline: 5m",
                    "limits.cycleMemoryMiB: 256");
        } finally {
            if (before == null) System.clearProperty(ContainmentLimits.CYCLE_PROPERTY);
            else System.setProperty(ContainmentLimits.CYCLE_PROPERTY, before);
        }
        assertThat(policy.containment().cycleDeadline()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void limitMistakesAreNamedWithTheirLine() {
        assertThatThrownBy(() -> PolicyParser.parse("policy.yaml", "limits:\n  cycleDeadline: 5\n"))
                .hasMessageContaining("policy.yaml:2:18: limits.cycleDeadline: ").hasMessageContaining("add a unit, e.g. 5s");
        assertThatThrownBy(() -> PolicyParser.parse("policy.yaml", "limits:\n  cycleDeadline: 0s\n"))
                .hasMessageContaining("policy.yaml:2:18: limits.cycleDeadline: must be longer than 0s");
        assertThatThrownBy(() -> PolicyParser.parse("policy.yaml", "limits:\n  cycleMemoryMiB: lots\n"))
                .hasMessageContaining("policy.yaml:2:19: limits.cycleMemoryMiB: 'lots' is not a whole number of MiB");
        assertThatThrownBy(() -> PolicyParser.parse("policy.yaml", "limits:\n  cycleDeadlines: 5s\n"))
                .hasMessageContaining("policy.yaml:2:3: limits.cycleDeadlines: unknown key");
    }

    @Test
    void kindsAreGroupQualifiedAsRbacWritesThemAndThePlainFormMeansAnyGroup() {
        KindName jobs = KindName.parse("jobs.batch");
        assertThat(jobs.matches("batch/v1", "Job")).isTrue();
        assertThat(jobs.matches("example.dev/v1", "Job")).as("another group's Job").isFalse();
        assertThat(KindName.parse("Job.batch").matches("batch/v1", "Job")).isTrue();
        assertThat(KindName.parse("deployments.apps").matches("apps/v1", "Deployment")).isTrue();
        assertThat(KindName.parse("networkpolicies.networking.k8s.io").matches("networking.k8s.io/v1", "NetworkPolicy")).isTrue();
        assertThat(KindName.parse("ingressclasses.networking.k8s.io").matches("networking.k8s.io/v1", "IngressClass")).isTrue();
        KindName pods = KindName.parse("pods");
        assertThat(pods.group()).as("no group: the core group").isEmpty();
        assertThat(pods.matches("v1", "Pod")).isTrue();
        assertThat(pods.matches("example.dev/v1", "Pod")).isFalse();
        assertThat(pods.matches("v1", "PodTemplate")).isFalse();
        KindName plain = KindName.parse("Job");
        assertThat(plain.group()).as("the plain form: any group").isNull();
        assertThat(plain.matches("batch/v1", "Job")).isTrue();
        assertThat(plain.matches("example.dev/v1", "Job")).isTrue();
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
        assertThatThrownBy(() -> PolicyParser.parse("policy.yaml", "defaults: {kinds: [jobs/batch]}\n"))
                .hasMessageContaining("'jobs/batch' is not a kind, group-qualified as RBAC writes it (e.g. jobs.batch");
    }

    /** What deploy/ installs is the policy too: `--policy deploy/15-policy.yaml` reads the ConfigMap's data.policy.yaml. */
    @Test
    void theConfigMapThatDeployInstallsIsReadAsThePolicyItHolds() throws Exception {
        java.nio.file.Path deploy = java.nio.file.Path.of("..", "deploy", "15-policy.yaml");
        Policy policy = PolicyParser.read(deploy);

        assertThat(policy.forBundle("postgres-cluster").namespaces().names()).containsExactly("databases");
        assertThat(policy.forBundle("postgres-cluster").clusterScopedReads()).containsExactly("nodes");
        assertThat(policy.forBundle("another").namespaces().names()).isEmpty();
        assertThat(policy.source()).isEqualTo(deploy.toString());
        assertThat(policy.limits()).isEqualTo(ContainmentLimits.defaults());
    }

    @Test
    void aMistakeInsideTheConfigMapIsNamedAtItsLineInTheManifest() {
        assertThatThrownBy(() -> PolicyParser.parse("15-policy.yaml", """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: runbook-policy
                data:
                  policy.yaml: |
                    bundles:
                      postgres-cluster:
                        namespace: [databases]
                """)).hasMessageContaining("15-policy.yaml:9:9: bundles.postgres-cluster.namespace: unknown key");
        assertThatThrownBy(() -> PolicyParser.parse("15-policy.yaml", """
                apiVersion: v1
                kind: ConfigMap
                data:
                  other.yaml: |
                    bundles: {}
                """)).hasMessageContaining("15-policy.yaml:4:3: data.policy.yaml: missing: the ConfigMap holds no policy");
        assertThatThrownBy(() -> PolicyParser.parse("role.yaml", """
                apiVersion: rbac.authorization.k8s.io/v1
                kind: Role
                """)).hasMessageContaining("role.yaml:2:7: kind: a policy file is the policy itself (defaults, bundles, limits) "
                + "or the ConfigMap that holds it under data.policy.yaml (deploy/15-policy.yaml), not a Role");
    }
}
