package dev.runbook.engine.state;

import dev.runbook.engine.bundle.CrdSchemas;
import dev.runbook.engine.problem.Problem;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** State files hold only what the API server would send: {@link ApiTypes}, through {@link StateFiles#parse}. */
class ApiTypesTest {
    private static final CrdSchemas CRD = CrdSchemas.of(Map.of("crds/stores.yaml", """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            spec:
              group: example.runbook.dev
              names: {kind: Store, plural: stores}
              versions:
                - name: v1
                  schema:
                    openAPIV3Schema:
                      type: object
                      properties:
                        spec:
                          type: object
                          properties:
                            size: {type: integer}
                            version: {type: string}
                            paused: {type: boolean}
                            tags: {type: array, items: {type: string}}
                            env: {type: object, additionalProperties: {type: string}}
                            port: {x-kubernetes-int-or-string: true}
                        status:
                          type: object
                          x-kubernetes-preserve-unknown-fields: true
            """));

    private static List<String> problems(String yaml, ApiTypes types) {
        List<ObservedObject> objects = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        StateFiles.parse("state.yaml", yaml, objects, problems, types);
        if (problems.isEmpty()) assertThat(objects).isNotEmpty();
        return problems.stream().map(Problem::toString).toList();
    }

    @Test
    void labelsAndAnnotationsAreStrings() {
        assertThat(problems("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: a
                  labels: {tier: 1, ready: true, since: 2026-11-30T07:00:00Z, name: "1"}
                  annotations:
                    lsn: 50331648
                    role: primary
                """, ApiTypes.GENERIC)).containsExactly(
                "state.yaml:5:18: metadata.labels.tier: 1 is a number, but the API server stores labels as strings (kubectl refuses anything else): quote it ('1')",
                "state.yaml:5:28: metadata.labels.ready: true is a boolean, but the API server stores labels as strings (kubectl refuses anything else): quote it ('true')",
                "state.yaml:7:10: metadata.annotations.lsn: 50331648 is a number, but the API server stores annotations as strings (kubectl refuses anything else): quote it ('50331648')");
    }

    @Test
    void aConditionsStatusIsAStringAndSoIsConfigMapData() {
        assertThat(problems("""
                apiVersion: v1
                kind: Node
                metadata: {name: node-a}
                status:
                  conditions:
                    - {type: Ready, status: True, lastTransitionTime: 2026-11-30T07:00:00Z}
                ---
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: settings}
                data: {replicas: 3, level: debug}
                """, ApiTypes.GENERIC)).containsExactly(
                "state.yaml:6:29: status.conditions[0].status: True is a boolean, but the API server sends a condition's status as a string: quote it ('True')",
                "state.yaml:11:18: data.replicas: 3 is a number, but the API server stores ConfigMap data as strings (kubectl refuses anything else): quote it ('3')");
    }

    @Test
    void aBundlesOwnKindFollowsItsCrd() {
        String store = """
                apiVersion: example.runbook.dev/v1
                kind: Store
                metadata: {name: main}
                spec:
                  size: "3"
                  version: 1.10
                  paused: "false"
                  tags: [a, 2]
                  env: {LEVEL: debug, WORKERS: 4}
                  port: 8080
                  colour: blue
                status: {anything: [1, 2]}
                """;
        assertThat(problems(store, ApiTypes.of(CRD))).containsExactly(
                "state.yaml:5:9: spec.size: 3 is a string, but the schema of Store (crds/stores.yaml) says an integer, so the API server would refuse it: write it without quotes",
                "state.yaml:6:12: spec.version: 1.10 is a number, but the schema of Store (crds/stores.yaml) says a string, so the API server would refuse it: quote it ('1.10')",
                "state.yaml:7:11: spec.paused: false is a string, but the schema of Store (crds/stores.yaml) says a boolean, so the API server would refuse it: write it without quotes",
                "state.yaml:8:13: spec.tags[1]: 2 is a number, but the schema of Store (crds/stores.yaml) says a string, so the API server would refuse it: quote it ('2')",
                "state.yaml:9:32: spec.env.WORKERS: 4 is a number, but the schema of Store (crds/stores.yaml) says a string, so the API server would refuse it: quote it ('4')",
                "state.yaml:11:3: spec.colour is not in the schema of Store (crds/stores.yaml): the API server drops it when it stores the object; remove it, or declare it in the CRD");
        assertThat(problems(store, ApiTypes.GENERIC)).as("without its CRD, a kind's spec is not checked").isEmpty();
    }
}
