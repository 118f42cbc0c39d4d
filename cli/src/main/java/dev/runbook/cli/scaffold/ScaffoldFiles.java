package dev.runbook.cli.scaffold;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The files of a new bundle, by path inside it: a bundle that compiles, lints without a warning and
 * passes its scenarios as written, small enough to read in a minute and replace piece by piece. The
 * tutorial (docs/tutorial.md) walks through them.
 */
final class ScaffoldFiles {
    private ScaffoldFiles() {}

    static Map<String, String> of(NewBundle b) {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("bundle.yaml", fill(b, """
                name: NAME
                version: 0.1.0
                description: >
                  KIND resources, each kept with a ConfigMap that carries its spec.message. Written by
                  `runbook new`; see README.md.
                primary:
                  apiVersion: API_VERSION
                  kind: KIND
                  plural: PLURAL
                secondaries:
                  - apiVersion: v1
                    kind: ConfigMap
                    mapping: owner
                reconcilePeriod: 5m
                """));
        files.put("crds/" + b.crdName() + ".yaml", fill(b, """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata:
                  name: CRD_NAME
                spec:
                  group: GROUP
                  names:
                    kind: KIND
                    listKind: KINDList
                    plural: PLURAL
                    singular: SINGULAR
                  scope: Namespaced
                  versions:
                    - name: VERSION
                      served: true
                      storage: true
                      subresources:
                        status: {}
                      additionalPrinterColumns:
                        - {name: Phase, type: string, jsonPath: .status.phase}
                        - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
                      schema:
                        openAPIV3Schema:
                          type: object
                          properties:
                            spec:
                              type: object
                              properties:
                                message:
                                  type: string
                                  maxLength: 1024
                                  description: What the resource's ConfigMap carries.
                            status:
                              type: object
                              x-kubernetes-preserve-unknown-fields: true
                              properties:
                                phase: {type: string}
                """));
        files.put("rules/NAME.drl".replace("NAME", b.name()), fill(b, """
                package DRL_PACKAGE

                import dev.runbook.rules.fact.Primary
                import dev.runbook.rules.fact.PhaseClaim
                import dev.runbook.rules.fact.Resource
                import function dev.runbook.rules.action.Actions.applyTemplate
                import function dev.runbook.rules.action.Actions.setStatus
                import function dev.runbook.rules.action.Actions.setCondition

                // The NAME runbook. Every KIND keeps a ConfigMap, RESOURCE-config, that carries its
                // spec.message (templates/configmap.yaml); it is Pending until that ConfigMap is there, and
                // Ready once it is. Replace these rules with your own: each rule says what should be so, and
                // the operator makes it so (docs/authoring.md).

                // A rule that finds something not yet as it should be claims a phase; the most urgent claim
                // sets status.phase and the Ready condition, and no claim means Ready. The urgencies, most
                // urgent first: add yours in their place (docs/reference/idioms.md#phase-claims).
                declare enum Urgency
                    PENDING;
                end

                rule "Keep the ConfigMap of the KIND"
                when
                    Primary(!deleting)
                then
                    insertLogical(applyTemplate("configmap.yaml"));
                end

                rule "Pending while the ConfigMap is missing"
                when
                    $primary : Primary()
                    not Resource(kind == "ConfigMap", name == ($primary.name + "-config"))
                then
                    insertLogical(new PhaseClaim("Pending", Urgency.PENDING, "ConfigMapMissing", "waiting for the ConfigMap"));
                end

                rule "The most urgent claim sets the phase"
                when
                    $primary : Primary()
                    $claim : PhaseClaim()
                    not PhaseClaim(outranks($claim))
                then
                    insertLogical(setStatus($primary, "phase", $claim.getPhase()));
                    insertLogical(setCondition($primary, "Ready", "False", $claim.getReason(), $claim.getMessage()));
                end

                rule "Ready when no rule claims the phase"
                when
                    $primary : Primary()
                    not PhaseClaim()
                then
                    insertLogical(setStatus($primary, "phase", "Ready"));
                    insertLogical(setCondition($primary, "Ready", "True", "ConfigMapPresent", "the ConfigMap is in place"));
                end
                """));
        files.put("templates/configmap.yaml", fill(b, """
                # The ConfigMap every KIND keeps; owned by it, so it goes when the KIND goes.
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: @{primary.name}-config
                  labels:
                    INSTANCE_LABEL: @{primary.name}
                data:
                  message: @{yaml.quote(primary.str("spec.message", "hello"))}
                """));
        files.put("samples/SINGULAR.yaml".replace("SINGULAR", b.kind().toLowerCase(java.util.Locale.ROOT)), fill(b, """
                apiVersion: API_VERSION
                kind: KIND
                metadata:
                  name: example
                  namespace: default
                spec:
                  message: hello from example
                """));
        files.put("tests/basic.yaml", fill(b, """
                name: a new KIND gets its ConfigMap and becomes Ready
                now: 2026-11-30T09:00:00Z
                state:
                  - file: ../samples/SINGULAR.yaml
                steps:
                  - name: the ConfigMap is applied; the KIND is Pending until it is there
                    expect:
                      fired: [Keep the ConfigMap of the KIND, Pending while the ConfigMap is missing, The most urgent claim sets the phase]
                      actions:
                        - {action: apply, target: {kind: ConfigMap, name: example-config}, object: {data: {message: hello from example}}}
                      status: {phase: Pending}
                  - name: with its ConfigMap in place the KIND is Ready
                    advance: 1s
                    expect:
                      fired: [Ready when no rule claims the phase]
                      status: {phase: Ready}
                      conditions:
                        - {type: Ready, status: "True", reason: ConfigMapPresent}
                """));
        files.put("README.md", fill(b, """
                # The NAME bundle

                A bundle of Runbook Operator for the custom resource `KIND` (`API_VERSION`), written by
                `runbook new`. What each KIND gets: a ConfigMap `RESOURCE-config` carrying `spec.message`.

                | path | what |
                | --- | --- |
                | `bundle.yaml` | the primary kind, the kinds the rules observe, parameters and limits |
                | `crds/CRD_NAME.yaml` | the CRD, with the schema of `spec` |
                | `rules/NAME.drl` | the runbook |
                | `templates/configmap.yaml` | the ConfigMap, rendered per KIND |
                | `samples/SINGULAR.yaml` | an example resource |
                | `tests/basic.yaml` | a scenario: given the sample, what the rules do |

                Check it with `runbook lint NAME` and `runbook test NAME`; see what it would do with
                `runbook plan NAME --state NAME/samples/SINGULAR.yaml`; print the permissions the operator
                needs with `runbook rbac NAME --namespace NS`. The tutorial (docs/tutorial.md of
                Runbook Operator) goes from here to a running operator.
                """));
        return files;
    }

    private static String fill(NewBundle b, String text) {
        return text.replace("API_VERSION", b.apiVersion())
                .replace("CRD_NAME", b.crdName())
                .replace("DRL_PACKAGE", b.drlPackage())
                .replace("INSTANCE_LABEL", b.instanceLabel())
                .replace("PLURAL", b.plural())
                .replace("SINGULAR", b.kind().toLowerCase(java.util.Locale.ROOT))
                .replace("GROUP", b.group())
                .replace("VERSION", b.version())
                .replace("KIND", b.kind())
                .replace("NAME", b.name());
    }
}
