package dev.runbook.engine.bundle;

import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class BundleSpecParserTest {
    private static final String MINIMAL = """
            name: store
            primary:
              apiVersion: example.runbook.dev/v1
              kind: Store
            """;

    private static Problem problemOf(String yaml) {
        InvalidInputException error = catchThrowableOfType(InvalidInputException.class, () -> BundleSpecParser.parse(yaml));
        assertThat(error).as("parsing must fail").isNotNull();
        return error.getProblems().get(0);
    }

    @Test
    void aMinimalBundleGetsDefaults() {
        BundleSpec spec = BundleSpecParser.parse(MINIMAL);
        assertThat(spec.name()).isEqualTo("store");
        assertThat(spec.primary().plural()).isEqualTo("stores");
        assertThat(spec.primary().kind().group()).isEqualTo("example.runbook.dev");
        assertThat(spec.reconcilePeriod()).isEqualTo(BundleSpec.DEFAULT_RECONCILE_PERIOD);
        assertThat(spec.mode()).isEqualTo(BundleSpec.Mode.ENFORCE);
        assertThat(spec.fieldManager()).isEqualTo("runbook-store");
        assertThat(spec.limits()).isEqualTo(Limits.defaults());
    }

    @Test
    void readsEveryField() {
        BundleSpec spec = BundleSpecParser.parse("""
                name: store
                version: 2.1.0
                primary: {apiVersion: example.runbook.dev/v1, kind: Store, plural: storez}
                secondaries:
                  - {apiVersion: v1, kind: Pod, mapping: labels, selector: {app: "{name}"}}
                  - {apiVersion: apps/v1, kind: StatefulSet}
                reconcilePeriod: 90s
                mode: observe
                fieldManager: store-operator
                parameters:
                  delay: {default: 30s, type: duration, description: wait}
                  replicas: 3
                  enabled: true
                limits: {maxFirings: 10, maxActions: 5, namespaces: any, protectedKinds: [Secret]}
                """);
        assertThat(spec.version()).isEqualTo("2.1.0");
        assertThat(spec.primary().plural()).isEqualTo("storez");
        assertThat(spec.secondaries()).extracting(s -> s.kind().kind(), SecondaryKind::mapping)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("Pod", SecondaryKind.Mapping.LABELS),
                        org.assertj.core.groups.Tuple.tuple("StatefulSet", SecondaryKind.Mapping.OWNER));
        assertThat(spec.secondaries().get(0).selector()).isEqualTo(Map.of("app", "{name}"));
        assertThat(spec.reconcilePeriod()).isEqualTo(Duration.ofSeconds(90));
        assertThat(spec.mode()).isEqualTo(BundleSpec.Mode.OBSERVE);
        assertThat(spec.parameters().get("delay").type()).isEqualTo(Parameter.Type.DURATION);
        assertThat(spec.parameters().get("replicas").type()).isEqualTo(Parameter.Type.INTEGER);
        assertThat(spec.parameters().get("enabled").defaultValue()).isEqualTo(true);
        assertThat(spec.limits()).isEqualTo(new Limits(10, 5, true, List.of("Secret")));
    }

    @Test
    void aClusterScopedKindIsMappedByTheObjectsThatNameIt() {
        BundleSpec spec = BundleSpecParser.parse(MINIMAL + """
                secondaries:
                  - {apiVersion: v1, kind: Pod, mapping: labels, selector: {app: "{name}"}}
                  - {apiVersion: v1, kind: Node, mapping: reference, reference: {by: Pod, field: spec.nodeName}}
                  - {apiVersion: v1, kind: Secret, mapping: reference, reference: {by: Pod, field: spec.serviceAccountName}}
                """);
        SecondaryKind node = spec.secondaries().get(1);
        assertThat(node.mapping()).isEqualTo(SecondaryKind.Mapping.REFERENCE);
        assertThat(node.reference()).isEqualTo(new SecondaryKind.Reference("Pod", "spec.nodeName", true));
        assertThat(node.clusterScoped()).isTrue();
        assertThat(spec.secondaries().get(2).clusterScoped()).as("a namespaced kind is looked up in the pod's namespace").isFalse();
        assertThat(spec.secondaries().get(0).clusterScoped()).isFalse();
    }

    @Test
    void aReferenceMappingIsCheckedAgainstTheKindsDeclaredBeforeIt() {
        String pods = MINIMAL + "secondaries:\n  - {apiVersion: v1, kind: Pod, mapping: labels, selector: {app: \"{name}\"}}\n";
        assertThat(problemOf(pods + "  - {apiVersion: v1, kind: Node, mapping: labels, selector: {a: b}}\n").toString())
                .isEqualTo("bundle.yaml:7:43: secondaries[1].mapping: Node is cluster-scoped: it has no owner in the primary's"
                        + " namespace and no labels naming a primary; map it by the objects that name it: mapping: reference,"
                        + " e.g. reference: {by: Pod, field: spec.nodeName}");
        assertThat(problemOf(pods + "  - {apiVersion: v1, kind: Node, mapping: reference}\n").message())
                .startsWith("secondaries[1].reference: missing: a reference mapping names the kind and the field");
        assertThat(problemOf(pods + "  - {apiVersion: v1, kind: Node, mapping: reference, reference: {by: Job, field: spec.nodeName}}\n").message())
                .isEqualTo("secondaries[1].reference.by: 'Job' is not a secondary kind declared above this one (by owner or labels):"
                        + " declare the kind whose objects name Node first");
        assertThat(problemOf(pods + "  - {apiVersion: v1, kind: Node, mapping: reference, reference: {by: Pod, field: \"spec..x\"}}\n").message())
                .isEqualTo("secondaries[1].reference.field: 'spec..x' is not a dotted path of fields, e.g. spec.nodeName");
        assertThat(problemOf(pods + "  - {apiVersion: v1, kind: Service, reference: {by: Pod, field: a}}\n").message())
                .startsWith("secondaries[1].reference: only a reference mapping has a reference");
    }

    @Test
    void anUnknownKeyIsAnErrorAtItsLine() {
        Problem problem = problemOf(MINIMAL + "reconcilePeriodd: 30s\n");
        assertThat(problem.toString()).startsWith("bundle.yaml:5:1: reconcilePeriodd: unknown key: expected one of [");
    }

    @Test
    void aBadDurationNamesTheFieldAndTheFix() {
        Problem problem = problemOf(MINIMAL + "reconcilePeriod: 30x\n");
        assertThat(problem.line()).isEqualTo(5);
        assertThat(problem.message()).startsWith("reconcilePeriod: '30x' is not a duration");
    }

    @Test
    void aMissingPrimaryKindIsNamedWithItsPath() {
        Problem problem = problemOf("name: store\nprimary:\n  apiVersion: example.runbook.dev/v1\n");
        assertThat(problem.message()).isEqualTo("primary.kind: missing: e.g. PostgresCluster");
    }

    @Test
    void badValuesAreRefusedWithTheAllowedOnes() {
        assertThat(problemOf(MINIMAL + "mode: enforced\n").message()).isEqualTo("mode: 'enforced' is not a mode: use enforce or observe");
        assertThat(problemOf("name: Store_1\n").message()).contains("DNS label");
        assertThat(problemOf(MINIMAL + "parameters:\n  delay: {default: soon, type: duration}\n").message())
                .startsWith("parameters.delay.default: 'soon' is not a duration");
        assertThat(problemOf(MINIMAL + "parameters:\n  size: {default: big, type: quantity}\n").message())
                .startsWith("parameters.size.default: 'big' is not a quantity");
        assertThat(problemOf(MINIMAL + "parameters:\n  size: {default: 1, type: bytes}\n").message())
                .contains("use string, integer, boolean, duration or quantity");
        assertThat(problemOf(MINIMAL + "limits: {maxActions: 0}\n").message()).isEqualTo("limits.maxActions: '0' must be a whole number above 0");
        assertThat(problemOf(MINIMAL + "secondaries:\n  - {apiVersion: v1, kind: Pod, mapping: labels}\n").message())
                .startsWith("secondaries[0].selector: missing");
    }

    @Test
    void notYamlIsReportedAtItsLine() {
        Problem problem = problemOf("name: store\nprimary: [unclosed\n");
        assertThat(problem.file()).isEqualTo("bundle.yaml");
        assertThat(problem.line()).isGreaterThan(1);
        assertThat(problem.message()).startsWith("not valid YAML");
    }

    @Test
    void parameterOverridesAreCheckedAgainstTheirType() {
        BundleSpec spec = BundleSpecParser.parse(MINIMAL + "parameters:\n  delay: {default: 30s, type: duration}\n  replicas: 3\n");
        assertThat(ParameterValues.resolve(spec, Map.of("delay", "5m")).seconds("delay")).isEqualTo(300);
        assertThat(ParameterValues.resolve(spec, Map.of()).integer("replicas")).isEqualTo(3);
        BundleSpec sized = BundleSpecParser.parse(MINIMAL + "parameters:\n  walSize: {default: 1Gi, type: quantity}\n");
        assertThat(ParameterValues.resolve(sized, Map.of()).quantity("walSize")).isEqualByComparingTo("1073741824");
        assertThat(ParameterValues.resolve(sized, Map.of("walSize", "512Mi")).str("walSize")).isEqualTo("512Mi");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ParameterValues.resolve(sized, Map.of("walSize", "lots")))
                .hasMessageStartingWith("parameter 'walSize' (quantity): 'lots' is not a quantity: use a number with an optional suffix");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ParameterValues.resolve(spec, Map.of("replicas", "three")))
                .hasMessage("parameter 'replicas' (integer): 'three' is not a whole number");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ParameterValues.resolve(spec, Map.of("dealy", "1m")))
                .hasMessageStartingWith("unknown parameter 'dealy'");
    }
}
