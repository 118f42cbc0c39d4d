package dev.runbook.cli.deploy;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.policy.BundlePolicy;
import dev.runbook.engine.policy.Isolation;
import dev.runbook.engine.policy.ClusterScopedKinds;
import dev.runbook.engine.policy.ClusterScopedReads;
import dev.runbook.engine.policy.Policy;
import dev.runbook.engine.policy.PolicyParser;
import dev.runbook.operator.command.OperatorCommand;
import dev.runbook.cli.rbac.BundleRbac;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The manifests in {@code deploy/} that run the operator in a cluster: every one parses, they name
 * each other consistently, the Deployment runs a bundle that the image really holds under the policy
 * that 15-policy.yaml ships, a Role in each namespace that policy grants (and nowhere else) grants
 * exactly what that bundle needs (docs/install.md#permissions), and the CRD is the bundle's own.
 * The files are rendered from the Helm chart by deploy/render (deploy/check-chart fails when they are not
 * its fresh rendering); these checks hold whoever applies them without Helm to what the chart promises.
 * {@code RbacIT} checks the same rights on a real control plane.
 */
class DeployManifestsTest {
    static final String NAMESPACE = "runbook-system";
    static final Set<String> CLUSTER_SCOPED = Set.of("Namespace", "CustomResourceDefinition", "ClusterRole", "ClusterRoleBinding",
            "ValidatingWebhookConfiguration");
    /** The admission webhook's own objects (checked by {@link #theWebhookSeesOnlyBundleConfigMapsInTheOperatorsNamespace}). */
    static final String WEBHOOK_FILE = "50-webhook.yaml";
    static final String USER_ROLES_FILE = "25-user-roles.yaml";
    static final Set<String> NO_WILDCARDS = Set.of("*");

    static Path root;
    static Path deploy;
    /** Every object of every manifest, in apply order, with the file it came from. */
    static List<Manifest> manifests;

    record Manifest(Path file, Map<String, Object> object) {
        String kind() { return (String) object.get("kind"); }
        String name() { return (String) metadata().get("name"); }
        String namespace() { return (String) metadata().get("namespace"); }
        Map<String, Object> metadata() { return map(object, "metadata"); }
        @Override public String toString() { return kind() + " " + name() + " (" + root.relativize(file) + ")"; }
    }

    /** The project checkout: the directory above the working directory that holds deploy/. */
    static Path projectRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("deploy"))) dir = dir.getParent();
        if (dir == null) throw new IllegalStateException("run the tests from inside the project checkout");
        return dir;
    }

    @BeforeAll
    static void readManifests() throws IOException {
        root = projectRoot();
        deploy = root.resolve("deploy");
        manifests = new ArrayList<>();
        for (Path file : manifestFiles()) {
            try (Reader in = Files.newBufferedReader(file)) {
                for (Object document : new Yaml().loadAll(in)) {
                    if (document == null) continue;
                    assertThat(document).as(file + ": every document is an object").isInstanceOf(Map.class);
                    manifests.add(new Manifest(file, cast(document)));
                }
            }
        }
    }

    /**
     * The manifests, sorted by path (the apply order); the kustomization is not, nor deploy/image/,
     * the Helm chart (deploy/chart/, its templates are not YAML until rendered), the build's output
     * (deploy/target/), or deploy/postgres/, which is applied in each namespace that runs database pods,
     * not with the operator (docs/instance-manager.md#permissions; checked in the instance module's
     * InstanceRbacTest).
     */
    static List<Path> manifestFiles() throws IOException {
        try (Stream<Path> files = Files.walk(deploy)) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> !f.startsWith(deploy.resolve("target")) && !f.startsWith(deploy.resolve("chart"))
                            && !f.startsWith(deploy.resolve("postgres")))
                    .filter(f -> f.toString().endsWith(".yaml") && !f.getFileName().toString().equals("kustomization.yaml"))
                    .sorted().toList();
        }
    }

    @Test
    void everyManifestIsAKubernetesObjectNamedOnce() {
        // In each file, the kinds in the order Helm installs them (deploy/render keeps its order).
        assertThat(manifests).extracting(Manifest::kind).containsExactly("Namespace", "Namespace", "CustomResourceDefinition",
                "ConfigMap", "ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding", "ClusterRole", "ClusterRole",
                "Role", "RoleBinding", "Deployment", "ClusterRole", "ClusterRoleBinding", "Service", "ValidatingWebhookConfiguration");
        assertThat(manifests).as("nothing cluster-wide beyond the namespaces, the CRD, the webhook's configuration and its one"
                        + " grant, reading Nodes (checked by theClusterRolesGrantReadingTheClusterScopedKindsTheBundleReadsAndNothingElse)"
                        + " and the unbound roles aggregated into view, edit and admin")
                .filteredOn(m -> m.kind().startsWith("Cluster"))
                .allMatch(m -> m.file().getFileName().toString().equals(WEBHOOK_FILE) || m.name().equals("runbook-operator-read-nodes")
                        || m.file().getFileName().toString().equals(USER_ROLES_FILE) && m.kind().equals("ClusterRole"));
        Set<String> seen = new TreeSet<>();
        for (Manifest m : manifests) {
            assertThat((String) m.object().get("apiVersion")).as(m + " apiVersion").isNotBlank();
            assertThat(m.name()).as(m + " name").isNotBlank();
            assertThat(seen.add(m.kind() + "/" + m.namespace() + "/" + m.name())).as(m + " is named once").isTrue();
            if (CLUSTER_SCOPED.contains(m.kind())) {
                assertThat(m.namespace()).as(m + " is cluster-scoped: no namespace").isNull();
            } else if (m.kind().equals("Role") || m.kind().equals("RoleBinding")) {
                assertThat(m.namespace()).as(m + " is in the operator's namespace or one the policy grants")
                        .isIn(concat(NAMESPACE, grantedNamespaces()));
            } else {
                assertThat(m.namespace()).as(m + " lives in the operator's namespace").isEqualTo(NAMESPACE);
            }
        }
    }

    @Test
    void theNamespaceComesFirstAndEnforcesTheRestrictedPodSecurityStandard() {
        Manifest first = manifests.get(0);
        assertThat(root.relativize(first.file())).hasToString("deploy/00-namespace.yaml");
        assertThat(first.kind()).isEqualTo("Namespace");
        assertThat(first.name()).isEqualTo(NAMESPACE);
        assertThat(map(first.metadata(), "labels")).containsEntry("pod-security.kubernetes.io/enforce", "restricted");
    }

    @Test
    void theKustomizationAppliesEveryManifestInOrder() throws IOException {
        Map<String, Object> kustomization;
        try (Reader in = Files.newBufferedReader(deploy.resolve("kustomization.yaml"))) {
            kustomization = cast(new Yaml().load(in));
        }
        List<String> files = manifestFiles().stream().map(f -> deploy.relativize(f).toString()).toList();
        assertThat(list(kustomization, "resources")).isEqualTo(files);
    }

    /**
     * One CRD file per CRD: the bundle's own. The chart's crds/ is a link to the bundle's crds/, and
     * deploy/10-crds/ is its rendering, which holds the same object (Helm adds a header and a separator).
     */
    @Test
    void theCrdsAreTheBundlesOwn() throws IOException {
        Path bundleCrds = bundleSource().resolve("crds");
        Path chartCrds = deploy.resolve("chart/crds");
        assertThat(Files.isSymbolicLink(chartCrds)).as("deploy/chart/crds is a link to the bundle's crds/, not a copy").isTrue();
        assertThat(chartCrds.toRealPath()).as("deploy/chart/crds links to the bundle the Deployment runs").isEqualTo(bundleCrds.toRealPath());
        Set<String> shipped = fileNames(bundleCrds);
        assertThat(fileNames(deploy.resolve("10-crds"))).as("deploy/10-crds holds exactly the bundle's CRDs (deploy/render writes them)")
                .isEqualTo(shipped);
        for (String name : shipped) {
            assertThat(yaml(deploy.resolve("10-crds").resolve(name)))
                    .as("deploy/10-crds/%s is not %s: run deploy/render", name, root.relativize(bundleCrds.resolve(name)))
                    .isEqualTo(yaml(bundleCrds.resolve(name)));
        }
    }

    private static Object yaml(Path file) throws IOException {
        try (Reader in = Files.newBufferedReader(file)) {
            return new Yaml().load(in);
        }
    }

    @Test
    void eachRoleIsBoundToTheServiceAccountTheDeploymentRunsAs() {
        Manifest account = only("ServiceAccount");
        List<Manifest> roles = all("Role");
        assertThat(all("RoleBinding")).hasSameSizeAs(roles);
        for (Manifest role : roles) {
            Map<String, Object> binding = all("RoleBinding").stream()
                    .filter(b -> b.namespace().equals(role.namespace())).findFirst().orElseThrow().object();
            assertThat(map(binding, "roleRef")).containsEntry("apiGroup", "rbac.authorization.k8s.io")
                    .containsEntry("kind", "Role").containsEntry("name", role.name());
            assertThat(list(binding, "subjects")).singleElement().satisfies(subject -> assertThat(cast(subject))
                    .containsEntry("kind", "ServiceAccount").containsEntry("name", account.name())
                    .containsEntry("namespace", account.namespace()));
        }
        assertThat(podSpec().get("serviceAccountName")).isEqualTo(account.name());
    }

    @Test
    void theDeploymentRunsUnderThePolicyItMountsAndEveryGrantedNamespaceExists() {
        List<String> args = args();
        String policyFile = args.get(args.indexOf("--policy") + 1);
        Map<String, Object> mount = list(container(), "volumeMounts").stream().map(DeployManifestsTest::cast)
                .filter(m -> policyFile.startsWith(m.get("mountPath") + "/")).findFirst().orElseThrow();
        Map<String, Object> volume = list(podSpec(), "volumes").stream().map(DeployManifestsTest::cast)
                .filter(v -> v.get("name").equals(mount.get("name"))).findFirst().orElseThrow();
        Manifest policy = policyConfigMap();
        assertThat(map(volume, "configMap")).containsEntry("name", policy.name());
        assertThat(map(policy.object(), "data")).containsKey(policyFile.substring(policyFile.lastIndexOf('/') + 1));
        Set<String> namespaces = new TreeSet<>();
        all("Namespace").forEach(n -> namespaces.add(n.name()));
        assertThat(namespaces).containsAll(grantedNamespaces());
        assertThat(grantedNamespaces()).as("the operator never acts where its bundles live").doesNotContain(NAMESPACE)
                .doesNotContainAnyElementsOf(Policy.SYSTEM_NAMESPACES);
    }

    /**
     * One list of namespaces: the policy's. 00-namespace.yaml creates, and 20-rbac.yaml grants rights in,
     * exactly the namespaces 15-policy.yaml lists (over every bundle it names and its defaults); a
     * namespace added to one file and not the others fails here, naming the files to edit.
     */
    @Test
    void theNamespacesThePolicyListsAreExactlyTheOnesDeployCreatesAndGrantsRightsIn() {
        Set<String> listed = new TreeSet<>(policy().watchedNamespaces()
                .orElseThrow(() -> new AssertionError("deploy/15-policy.yaml: `namespaces: primary` means every namespace; "
                        + "list them, so that 20-rbac.yaml can grant rights in exactly those")));
        String fix = "deploy/15-policy.yaml lists " + listed + ": the chart makes a Namespace, Role and RoleBinding in each "
                + "(deploy/chart/templates/00-namespace.yaml, 20-rbac.yaml); run deploy/render after changing the policy in deploy/chart/values.yaml";
        for (String kind : List.of("Namespace", "Role", "RoleBinding")) {
            Set<String> where = new TreeSet<>();
            all(kind).forEach(m -> where.add(kind.equals("Namespace") ? m.name() : m.namespace()));
            where.remove(NAMESPACE);
            assertThat(where).as("the namespaces of the %ss: %s", kind, fix).isEqualTo(listed);
        }
    }

    @Test
    void theDeploymentRunsOneOperatorAtATimeWithLimitsAndWithoutPrivileges() throws IOException {
        Map<String, Object> deployment = only("Deployment").object();
        Map<String, Object> spec = map(deployment, "spec");
        assertThat((Integer) spec.get("replicas")).as("a standby to take over").isGreaterThan(1);
        assertThat(args()).as("several replicas act one at a time only with leader election").contains("--leader-election");
        Map<String, Object> template = map(spec, "template");
        assertThat(map(map(template, "metadata"), "labels")).containsAllEntriesOf(map(map(spec, "selector"), "matchLabels"));

        Map<String, Object> pod = podSpec();
        Map<String, Object> podSecurity = map(pod, "securityContext");
        assertThat(podSecurity).containsEntry("runAsNonRoot", true);
        assertThat((Integer) podSecurity.get("runAsUser")).isPositive().isEqualTo(imageUser());
        assertThat(map(podSecurity, "seccompProfile")).containsEntry("type", "RuntimeDefault");

        Map<String, Object> container = container();
        assertThat((String) container.get("image")).matches("ghcr\\.io/runbook-operator/runbook:\\d+\\.\\d+\\.\\d+");
        Map<String, Object> resources = map(container, "resources");
        assertThat(map(resources, "requests")).containsKeys("cpu", "memory");
        assertThat(map(resources, "limits")).containsKeys("cpu", "memory");
        Map<String, Object> security = map(container, "securityContext");
        assertThat(security).containsEntry("allowPrivilegeEscalation", false).containsEntry("readOnlyRootFilesystem", true);
        assertThat(list(map(security, "capabilities"), "drop")).containsExactly("ALL");
        assertThat(list(container, "volumeMounts")).anySatisfy(m -> assertThat(cast(m)).containsEntry("mountPath", "/tmp"));
    }

    /**
     * Bundles from ConfigMaps run in the worker host's container, and it holds no credential: the pod mounts
     * no token by itself, the operator's container mounts the projected token, the worker host's does not,
     * and the policy sends ConfigMap bundles to the worker host's socket (docs/security.md, "The process boundary").
     */
    @Test
    void bundleCodeFromConfigMapsRunsInAContainerWithoutTheServiceAccountToken() {
        Map<String, Object> pod = podSpec();
        assertThat(pod).containsEntry("automountServiceAccountToken", false);
        Map<String, Map<String, Object>> volumes = new TreeMap<>();
        for (Object volume : list(pod, "volumes")) volumes.put(String.valueOf(cast(volume).get("name")), cast(volume));
        Set<String> tokenVolumes = new TreeSet<>();
        volumes.forEach((name, volume) -> {
            if (volume.containsKey("projected") && list(map(volume, "projected"), "sources").stream()
                    .anyMatch(source -> cast(source).containsKey("serviceAccountToken"))) tokenVolumes.add(name);
        });
        assertThat(mountsOf(container())).containsEntry("/var/run/secrets/kubernetes.io/serviceaccount", "token");
        assertThat(tokenVolumes).containsExactly("token");

        Map<String, Object> host = container("worker-host");
        assertThat(host.get("image")).isEqualTo(container().get("image"));
        assertThat(mountsOf(host).values()).as("the worker host mounts no token and no policy").doesNotContain("token", "policy");
        List<String> args = list(host, "args").stream().map(String::valueOf).toList();
        assertThat(args).hasSize(3).startsWith("worker-host", "--socket");
        Path socket = Path.of(args.get(2));
        Isolation isolation = policy().isolation();
        assertThat(isolation.configMaps()).isEqualTo(Isolation.Trust.ISOLATED);
        assertThat(isolation.worker()).isEqualTo(Isolation.Worker.SOCKET);
        assertThat(isolation.socket()).isEqualTo(socket);
        String shared = mountsOf(host).get(socket.getParent().toString());
        assertThat(shared).as("the socket's directory is a volume of the worker host").isNotNull();
        assertThat(mountsOf(container())).containsEntry(socket.getParent().toString(), shared);
        assertThat(map(volumes.get(shared), "emptyDir")).isNotNull();
        assertThat(map(map(host, "resources"), "limits")).containsKeys("cpu", "memory");
        Map<String, Object> security = map(host, "securityContext");
        assertThat(security).containsEntry("allowPrivilegeEscalation", false).containsEntry("readOnlyRootFilesystem", true);
        assertThat(list(map(security, "capabilities"), "drop")).containsExactly("ALL");
    }

    /** A container's volume mounts: mount path to volume name. */
    private static Map<String, String> mountsOf(Map<String, Object> container) {
        Map<String, String> mounts = new TreeMap<>();
        for (Object mount : list(container, "volumeMounts")) {
            mounts.put(String.valueOf(cast(mount).get("mountPath")), String.valueOf(cast(mount).get("name")));
        }
        return mounts;
    }

    @Test
    void theOperatorMayReadButNotWriteBundleConfigMapsAndHoldItsLeasesInItsOwnNamespace() {
        Manifest role = all("Role").stream().filter(r -> r.namespace().equals(NAMESPACE)).findFirst().orElseThrow();
        Map<String, Set<String>> granted = new TreeMap<>();
        for (Object item : list(role.object(), "rules")) {
            Map<String, Object> rule = cast(item);
            for (Object group : list(rule, "apiGroups")) {
                for (Object resource : list(rule, "resources")) {
                    granted.computeIfAbsent(group + "/" + resource, k -> new TreeSet<>())
                            .addAll(list(rule, "verbs").stream().map(String::valueOf).toList());
                }
            }
        }
        // ConfigMaps: read by BundleReloader (list, then watch), never written; the Lease: LeaseLock gets,
        // creates, merge-patches; presence Leases: applied, listed, deleted; events on them and on bundle ConfigMaps;
        // Secrets: the copies of accepted bundles (AcceptedBundles) and the webhook's certificate (WebhookTls).
        assertThat(granted).isEqualTo(Map.of("/configmaps", Set.of("get", "list", "watch"),
                "/secrets", Set.of("get", "list", "create", "update", "delete"),
                "coordination.k8s.io/leases", Set.of("get", "list", "create", "patch", "delete"),
                "/events", Set.of("create", "get", "patch")));
        Map<String, Object> binding = all("RoleBinding").stream().filter(b -> b.namespace().equals(NAMESPACE)).findFirst()
                .orElseThrow().object();
        assertThat(map(binding, "roleRef")).containsEntry("kind", "Role").containsEntry("name", role.name());
        Manifest account = only("ServiceAccount");
        assertThat(list(binding, "subjects")).singleElement().satisfies(subject -> assertThat(cast(subject))
                .containsEntry("kind", "ServiceAccount").containsEntry("name", account.name())
                .containsEntry("namespace", account.namespace()));
        // The operator's namespace comes from the pod itself, and the probes reach the --http-port.
        assertThat(list(container(), "env")).anySatisfy(e -> assertThat(cast(e)).containsEntry("name", "POD_NAMESPACE")
                .containsEntry("valueFrom", Map.of("fieldRef", Map.of("fieldPath", "metadata.namespace"))));
        List<String> args = args();
        assertThat(args).contains("--bundle-configmaps");
        int port = Integer.parseInt(args.get(args.indexOf("--http-port") + 1));
        assertThat(list(container(), "ports")).anySatisfy(p -> assertThat(cast(p)).containsEntry("name", "http")
                .containsEntry("containerPort", port));
        assertThat(map(map(container(), "livenessProbe"), "httpGet")).containsEntry("path", "/healthz").containsEntry("port", "http");
        assertThat(map(map(container(), "readinessProbe"), "httpGet")).containsEntry("path", "/readyz").containsEntry("port", "http");
    }

    @Test
    void theDeploymentsArgumentsAreARunCommandLineForABundleTheImageHolds() throws IOException {
        List<String> args = args();
        assertThat(args).as("the image's entrypoint is the runbook command: the args start with the subcommand").first().isEqualTo("run");
        Class<?> run = Stream.of(OperatorCommand.class.getAnnotation(CommandLine.Command.class).subcommands())
                .filter(c -> c.getAnnotation(CommandLine.Command.class).name().equals("run")).findFirst().orElseThrow();
        CommandLine.ParseResult parsed = new CommandLine(run).parseArgs(args.subList(1, args.size()).toArray(String[]::new));
        assertThat(parsed.hasMatchedOption("--bundle")).isTrue();
        assertThat(parsed.hasMatchedOption("--namespace")).as("the namespaces the policy grants, as the Roles do").isFalse();
        assertThat(parsed.hasMatchedOption("--policy")).isTrue();

        List<String> entrypoint = list(imageConfig(), "Entrypoint").stream().map(String::valueOf).toList();
        assertThat(entrypoint).as("deploy/image/config.json: the entrypoint runs the operator's own entry point, never the command line")
                .startsWith("/usr/lib/jvm/java-17-openjdk-amd64/bin/java").endsWith(OperatorCommand.class.getName());
        assertThat(entrypoint).as("the classpath is the file deploy/build-image writes").containsSequence("-cp", "@/opt/runbook/classpath");
        List<String> cmd = list(imageConfig(), "Cmd").stream().map(String::valueOf).toList();
        assertThat(cmd).as("the image's default arguments are a run command line too").first().isEqualTo("run");
        new CommandLine(run).parseArgs(cmd.subList(1, cmd.size()).toArray(String[]::new));
        assertThat(bundleArguments(cmd)).isEqualTo(bundleArguments(args));
        Map<String, String> copies = imageBundles();
        List<String> bundles = bundleArguments(args);
        assertThat(bundles).isNotEmpty();
        for (String bundle : bundles) {
            assertThat(copies).as("deploy/image/bundles puts a bundle at %s", bundle).containsKey(bundle);
            assertThat(root.resolve(copies.get(bundle)).resolve("bundle.yaml")).as("%s is a bundle directory", copies.get(bundle)).isRegularFile();
        }
        assertThat(bundleSource()).isEqualTo(root.resolve("runbooks/postgres-cluster"));
    }

    @Test
    void peopleBoundToViewReadTheBundlesKindAndToEditChangeItButNotItsStatus() throws IOException {
        Map<String, Object> crd = only("CustomResourceDefinition").object();
        String group = String.valueOf(map(crd, "spec").get("group"));
        String plural = String.valueOf(map(map(crd, "spec"), "names").get("plural"));
        List<Manifest> roles = manifests.stream().filter(m -> m.file().getFileName().toString().equals(USER_ROLES_FILE)).toList();
        Map<String, Object> view = roles.stream().filter(m -> m.name().endsWith("-view")).findFirst().orElseThrow().object();
        Map<String, Object> edit = roles.stream().filter(m -> m.name().endsWith("-edit")).findFirst().orElseThrow().object();
        assertThat(map(map(view, "metadata"), "labels")).containsEntry("rbac.authorization.k8s.io/aggregate-to-view", "true")
                .containsEntry("rbac.authorization.k8s.io/aggregate-to-edit", "true").containsEntry("rbac.authorization.k8s.io/aggregate-to-admin", "true");
        assertThat(map(map(edit, "metadata"), "labels")).doesNotContainKey("rbac.authorization.k8s.io/aggregate-to-view")
                .containsEntry("rbac.authorization.k8s.io/aggregate-to-edit", "true").containsEntry("rbac.authorization.k8s.io/aggregate-to-admin", "true");
        assertThat(list(view, "rules")).containsExactly(Map.of("apiGroups", List.of(group),
                "resources", List.of(plural, plural + "/status"), "verbs", List.of("get", "list", "watch")));
        assertThat(list(edit, "rules")).containsExactly(Map.of("apiGroups", List.of(group),
                "resources", List.of(plural), "verbs", List.of("create", "update", "patch", "delete", "deletecollection")));
    }

    @Test
    void theImageExposesTheDeploymentsPortsAndRunsAsItsUser() throws IOException {
        Map<String, Object> exposed = map(imageConfig(), "ExposedPorts");
        Set<String> containerPorts = new TreeSet<>();
        for (Object port : list(container(), "ports")) containerPorts.add(cast(port).get("containerPort") + "/tcp");
        assertThat(new TreeSet<>(exposed.keySet())).as("deploy/image/config.json's ExposedPorts are the Deployment's containerPorts")
                .isEqualTo(containerPorts);
        assertThat(imageUser()).isEqualTo(map(podSpec(), "securityContext").get("runAsUser"));
        assertThat(list(imageConfig(), "Env")).as("the bundle cache on /tmp, the only writable directory (readOnlyRootFilesystem)")
                .contains("RUNBOOK_BUNDLE_CACHE=/tmp/runbook-bundles");
    }

    /**
     * The verbs on each (apiGroup, resource) the bundle's operator uses, by the rules of
     * docs/install.md#permissions, granted by a Role in each namespace the policy grants the bundle.
     */
    @Test
    void theRoleInEachGrantedNamespaceGrantsExactlyWhatTheBundleNeeds() throws IOException {
        // Derived by the code behind `runbook rbac` (BundleRbac): the bundle.yaml, the templates, the rules' targets.
        Map<String, Set<String>> needed = BundleRbac.needed(bundleSource());
        List<Manifest> roles = all("Role").stream().filter(r -> !r.namespace().equals(NAMESPACE)).toList();
        assertThat(roles).extracting(Manifest::namespace).containsExactlyInAnyOrderElementsOf(grantedNamespaces());
        for (Manifest role : roles) {
            assertThat(rules(role)).as("the Role in %s (group/resource -> verbs) against what the bundle needs", role.namespace())
                    .isEqualTo(needed);
        }
    }

    /**
     * Outside the webhook's own ClusterRole, the operator's cluster-wide rights are reading (get, list,
     * watch) the cluster-scoped kinds its bundle declares, exactly those the policy lets it read, each
     * bound to the operator's ServiceAccount; no other verb, no other resource.
     */
    @Test
    void theClusterRolesGrantReadingTheClusterScopedKindsTheBundleReadsAndNothingElse() throws IOException {
        BundleSpec spec = dev.runbook.engine.bundle.BundleSpecParser.parse(Files.readString(bundleSource().resolve("bundle.yaml")));
        List<String> reads = ClusterScopedReads.declared(spec);
        assertThat(reads).as("the shipped bundle reads the Nodes its pods run on").containsExactly("Node");
        assertThat(ClusterScopedReads.refusal(spec, policy())).as("the policy lets it read them").isNull();
        assertThat(policy().forBundle(spec.name()).clusterScopedReads()).as("listed in the policy, not left to 'declared'")
                .hasSameSizeAs(reads);
        assertThat(policy().forBundle(spec.name()).clusterScoped()).as("reading grants no cluster-scoped write").isEmpty();
        // Derived by the code behind `runbook rbac` (BundleRbac.clusterReads).
        Map<String, Set<String>> needed = BundleRbac.clusterReads(bundleSource());
        List<Manifest> clusterRoles = manifests.stream().filter(m -> m.kind().equals("ClusterRole"))
                .filter(m -> !m.file().getFileName().toString().equals(WEBHOOK_FILE))
                .filter(m -> !m.file().getFileName().toString().equals(USER_ROLES_FILE)).toList();
        Map<String, Set<String>> granted = new TreeMap<>();
        Manifest account = only("ServiceAccount");
        for (Manifest role : clusterRoles) {
            rules(role).forEach((resource, verbs) -> granted.computeIfAbsent(resource, k -> new TreeSet<>()).addAll(verbs));
            Map<String, Object> binding = all("ClusterRoleBinding").stream().filter(b -> b.name().equals(role.name()))
                    .findFirst().orElseThrow().object();
            assertThat(map(binding, "roleRef")).containsEntry("kind", "ClusterRole").containsEntry("name", role.name());
            assertThat(list(binding, "subjects")).singleElement().satisfies(subject -> assertThat(cast(subject))
                    .containsEntry("kind", "ServiceAccount").containsEntry("name", account.name())
                    .containsEntry("namespace", account.namespace()));
        }
        assertThat(granted).as("the ClusterRoles outside %s and %s (group/resource -> verbs)", WEBHOOK_FILE, USER_ROLES_FILE).isEqualTo(needed);
    }

    static Map<String, Set<String>> rules(Manifest role) {
        Map<String, Set<String>> granted = new TreeMap<>();
        for (Object item : list(role.object(), "rules")) {
            Map<String, Object> rule = cast(item);
            assertThat(rule).as("no resourceNames or nonResourceURLs: %s", rule).containsOnlyKeys("apiGroups", "resources", "verbs");
            for (Object group : list(rule, "apiGroups")) {
                for (Object resource : list(rule, "resources")) {
                    for (Object verb : list(rule, "verbs")) {
                        assertThat(List.of(group, resource, verb)).as("no wildcards: %s", rule).doesNotContainAnyElementsOf(NO_WILDCARDS);
                        granted.computeIfAbsent(group + "/" + resource, k -> new TreeSet<>()).add((String) verb);
                    }
                }
            }
        }
        return granted;
    }

    // ---- the policy ----------------------------------------------------------------------------------

    static Manifest policyConfigMap() {
        return only("ConfigMap");
    }

    /** The policy the Deployment runs under, read by the operator's own parser. */
    static Policy policy() {
        String text = (String) map(policyConfigMap().object(), "data").get("policy.yaml");
        return PolicyParser.parse("deploy/15-policy.yaml", text);
    }

    /** The namespaces the policy grants the bundle the Deployment runs. */
    static Set<String> grantedNamespaces() {
        try {
            BundlePolicy granted = policy().forBundle(bundleSource().getFileName().toString());
            assertThat(granted.namespaces().primary()).as("the shipped policy lists namespaces, so that RBAC can be namespaced")
                    .isFalse();
            return new TreeSet<>(granted.namespaces().names());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<String> concat(String first, Set<String> rest) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(rest);
        return all;
    }

    // ---- the bundle, its templates and its rules -------------------------------------------------

    /** The project directory of the (single) bundle the Deployment runs, through deploy/image/bundles. */
    static Path bundleSource() throws IOException {
        List<String> bundles = bundleArguments(args());
        assertThat(bundles).as("the Deployment runs one bundle").hasSize(1);
        String source = imageBundles().get(bundles.get(0));
        assertThat(source).as("deploy/image/bundles puts a bundle at %s", bundles.get(0)).isNotNull();
        return root.resolve(source);
    }




    // ---- the Deployment and the image ---------------------------------------------------------

    static Map<String, Object> podSpec() {
        return map(map(map(only("Deployment").object(), "spec"), "template"), "spec");
    }

    /** The operator's container. */
    static Map<String, Object> container() {
        return container("operator");
    }

    static Map<String, Object> container(String name) {
        List<Object> containers = list(podSpec(), "containers");
        assertThat(containers).as("the operator and the worker host").hasSize(2);
        return containers.stream().map(DeployManifestsTest::cast).filter(c -> name.equals(c.get("name"))).findFirst()
                .orElseThrow(() -> new AssertionError("no container " + name + " in the Deployment"));
    }

    static List<String> args() {
        return list(container(), "args").stream().map(String::valueOf).toList();
    }

    /** The values of every --bundle option (repeated, or several after one). */
    static List<String> bundleArguments(List<String> args) {
        List<String> bundles = new ArrayList<>();
        boolean inBundles = false;
        for (String arg : args) {
            if (arg.startsWith("-")) {
                inBundles = arg.equals("--bundle");
            } else if (inBundles) {
                bundles.add(arg);
            }
        }
        return bundles;
    }

    /** The "config" object of the image's configuration, deploy/image/config.json (deploy/build-image uses it as it is). */
    @Test
    void theImageRunsTheOperatorWithTheMemorySettingsOfTheLaunchersRunCommand() throws IOException {
        // One decision (docs/performance.md#the-operators-memory): what `./runbook run` runs with is
        // what the image runs with; the image adds only the share of the container's limit for the heap.
        String launcher = Files.readString(root.resolve("runbook"));
        var line = java.util.regex.Pattern.compile("(?m)^\\s*run\\) jvm\\+?=\\(([^)]*)\\) ;;$").matcher(launcher);
        assertThat(line.find()).as("./runbook: the run command's JVM options").isTrue();
        List<String> runOptions = List.of(line.group(1).trim().split("\\s+"));
        assertThat(runOptions).contains("-XX:+UseSerialGC").anyMatch(o -> o.startsWith("-Xms"));
        List<String> entrypoint = list(imageConfig(), "Entrypoint").stream().map(String::valueOf).toList();
        assertThat(entrypoint).containsSequence(runOptions).contains("-XX:MaxRAMPercentage=75");
    }

    static Map<String, Object> imageConfig() throws IOException {
        Map<String, Object> file = new Yaml().load(Files.readString(deploy.resolve("image/config.json")));
        return map(file, "config");
    }

    /** deploy/image/bundles: destination in the image -> source in the project. */
    static Map<String, String> imageBundles() throws IOException {
        Map<String, String> bundles = new LinkedHashMap<>();
        for (String line : Files.readAllLines(deploy.resolve("image/bundles"))) {
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] words = line.trim().split("\\s+");
            assertThat(words).as("deploy/image/bundles: SOURCE DESTINATION: %s", line).hasSize(2);
            assertThat(root.resolve(words[0]).resolve("bundle.yaml")).as("%s: the source is a bundle in the project", line).isRegularFile();
            bundles.put(words[1].replaceAll("/$", ""), words[0].replaceAll("/$", ""));
        }
        return bundles;
    }

    /** The numeric uid of the image's user. */
    static int imageUser() throws IOException {
        String user = String.valueOf(imageConfig().get("User"));
        assertThat(user).as("deploy/image/config.json: a numeric uid:gid, so that runAsNonRoot can be checked").matches("\\d+:\\d+");
        return Integer.parseInt(user.substring(0, user.indexOf(':')));
    }

    // ---- helpers -----------------------------------------------------------------------------------

    static List<Manifest> all(String kind) {
        return manifests.stream().filter(m -> m.kind().equals(kind)).toList();
    }


    @Test
    void theWebhookSeesOnlyBundleConfigMapsInTheOperatorsNamespace() {
        List<Manifest> webhook = manifests.stream().filter(m -> m.file().getFileName().toString().equals(WEBHOOK_FILE)).toList();
        Manifest configuration = webhook.stream().filter(m -> m.kind().equals("ValidatingWebhookConfiguration")).findFirst().orElseThrow();
        Map<String, Object> hook = cast(list(configuration.object(), "webhooks").get(0));
        assertThat(configuration.name()).isEqualTo(dev.runbook.operator.admission.BundleWebhook.Settings.CONFIGURATION);
        assertThat(hook).containsEntry("failurePolicy", "Ignore").containsEntry("sideEffects", "None");
        assertThat((Integer) hook.get("timeoutSeconds")).isGreaterThan(
                (int) dev.runbook.operator.admission.BundleWebhook.Settings.BUDGET.toSeconds());
        assertThat(map(map(hook, "namespaceSelector"), "matchLabels")).isEqualTo(Map.of("kubernetes.io/metadata.name", NAMESPACE));
        assertThat(list(map(hook, "objectSelector"), "matchExpressions")).singleElement()
                .isEqualTo(Map.of("key", dev.runbook.operator.reload.BundleConfigMaps.LABEL, "operator", "Exists"));
        Map<String, Object> service = map(map(hook, "clientConfig"), "service");
        assertThat(service).containsEntry("name", dev.runbook.operator.admission.BundleWebhook.Settings.SERVICE)
                .containsEntry("namespace", NAMESPACE).containsEntry("path", dev.runbook.operator.admission.BundleWebhook.PATH);
        // The Service reaches the container's webhook port, which is the one the operator serves.
        List<String> args = args();
        int port = Integer.parseInt(args.get(args.indexOf("--webhook-port") + 1));
        assertThat(list(container(), "ports")).anySatisfy(p -> assertThat(cast(p)).containsEntry("name", "webhook")
                .containsEntry("containerPort", port));
        // The operator may patch that one configuration (its caBundle), nothing else cluster-wide.
        Manifest role = webhook.stream().filter(m -> m.kind().equals("ClusterRole")).findFirst().orElseThrow();
        assertThat(list(role.object(), "rules")).singleElement().isEqualTo(Map.of("apiGroups", List.of("admissionregistration.k8s.io"),
                "resources", List.of("validatingwebhookconfigurations"), "resourceNames", List.of(configuration.name()),
                "verbs", List.of("get", "patch")));
    }

    /** The one object of that kind outside the webhook's file. */
    static Manifest only(String kind) {
        List<Manifest> found = manifests.stream().filter(m -> m.kind().equals(kind))
                .filter(m -> !m.file().getFileName().toString().equals(WEBHOOK_FILE)).toList();
        assertThat(found).as("one %s", kind).hasSize(1);
        return found.get(0);
    }

    private static Set<String> fileNames(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).collect(java.util.stream.Collectors.toCollection(LinkedHashSet::new));
        }
    }

    private static String key(Map<String, String> map, String value) {
        return map.entrySet().stream().filter(e -> e.getValue().equals(value)).map(Map.Entry::getKey).findFirst().orElseThrow();
    }

    static Map<String, Object> map(Map<String, Object> object, String key) {
        Object value = object.get(key);
        assertThat(value).as("%s is an object in %s", key, object.keySet()).isInstanceOf(Map.class);
        return cast(value);
    }

    static List<Object> list(Map<String, Object> object, String key) {
        Object value = object.get(key);
        assertThat(value).as("%s is a list", key).isInstanceOf(List.class);
        @SuppressWarnings("unchecked")
        List<Object> list = (List<Object>) value;
        return list;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> cast(Object value) {
        return (Map<String, Object>) value;
    }
}
