package dev.runbook.rules.action;

import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Primary;
import dev.runbook.rules.fact.Resource;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ActionsTest {
    static final Primary STORE = new Primary(Map.of("apiVersion", "example.runbook.dev/v1", "kind", "Store",
            "metadata", Map.of("name", "main", "namespace", "demo")));
    static final Resource POD = new Resource(Map.of("apiVersion", "v1", "kind", "Pod",
            "metadata", Map.of("name", "main-0", "namespace", "demo")));
    static final Resource NODE = new Resource(Map.of("apiVersion", "v1", "kind", "Node",
            "metadata", Map.of("name", "worker-1")));

    private static final String STORE_TARGET = """
            target: {apiVersion: example.runbook.dev/v1, kind: Store, namespace: demo, name: main}
            """;
    private static final String POD_TARGET = """
            target: {apiVersion: v1, kind: Pod, namespace: demo, name: main-0}
            """;

    private static Map<String, Object> yaml(String text) {
        // Actions hold whole numbers as longs (see Values.frozen); YAML gives ints: compare alike.
        return dev.runbook.rules.fact.Values.frozenMap(new Yaml().<Map<String, Object>>load(text));
    }

    // ---- the YAML form of each factory -------------------------------------------------------

    @Test
    void apply() {
        Apply apply = Actions.apply(Map.of("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", Map.of("name", "main-config", "namespace", "demo"),
                "data", Map.of("level", "info")));
        assertThat(apply.toMap()).isEqualTo(yaml("""
                action: apply
                target: {apiVersion: v1, kind: ConfigMap, namespace: demo, name: main-config}
                object:
                  apiVersion: v1
                  kind: ConfigMap
                  metadata: {name: main-config, namespace: demo}
                  data: {level: info}
                """));
        assertThat(apply.getType()).isEqualTo("apply");
        assertThat(apply.getTemplate()).isNull();
        assertThat(apply.getTarget()).isEqualTo(ObjectRef.of("v1", "ConfigMap", "demo", "main-config"));
        assertThat(apply.identity()).isEqualTo("apply ConfigMap demo/main-config");
    }

    @Test
    void applyOfAClusterScopedObjectHasNoNamespace() {
        Apply apply = Actions.apply(Map.of("apiVersion", "v1", "kind", "Namespace", "metadata", Map.of("name", "team-a")));
        assertThat(apply.toMap()).isEqualTo(yaml("""
                action: apply
                target: {apiVersion: v1, kind: Namespace, name: team-a}
                object: {apiVersion: v1, kind: Namespace, metadata: {name: team-a}}
                """));
        assertThat(apply.identity()).isEqualTo("apply Namespace team-a");
    }

    @Test
    void applyOfARenderedTemplateNamesTheTemplate() {
        Apply apply = new Apply(Map.of("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", Map.of("name", "main-config", "namespace", "demo")), "config.yaml");
        assertThat(apply.toMap()).isEqualTo(yaml("""
                action: apply
                target: {apiVersion: v1, kind: ConfigMap, namespace: demo, name: main-config}
                template: config.yaml
                object: {apiVersion: v1, kind: ConfigMap, metadata: {name: main-config, namespace: demo}}
                """));
        assertThat(apply.getTemplate()).isEqualTo("config.yaml");
    }

    @Test
    void applyTemplate() {
        ApplyTemplate plain = Actions.applyTemplate("config.yaml");
        assertThat(plain.toMap()).isEqualTo(yaml("{action: applyTemplate, template: config.yaml}"));
        assertThat(plain.getTarget()).isNull();
        assertThat(plain.getVars()).isEmpty();
        assertThat(plain.identity()).isEqualTo("applyTemplate config.yaml");

        ApplyTemplate withVars = Actions.applyTemplate("backup-job.yaml", Map.of("jobName", "main-backup-20261130-0200"));
        assertThat(withVars.toMap()).isEqualTo(yaml("""
                action: applyTemplate
                template: backup-job.yaml
                vars: {jobName: main-backup-20261130-0200}
                """));
        assertThat(withVars.identity()).isEqualTo("applyTemplate backup-job.yaml {jobName=main-backup-20261130-0200}");
        assertThat(Actions.applyTemplate("a.yaml", null).getVars()).isEmpty();
    }

    @Test
    void mergePatchOfAMap() {
        MergePatch patch = Actions.mergePatch(POD, Map.of("spec", Map.of("activeDeadlineSeconds", 30)));
        assertThat(patch.toMap()).isEqualTo(yaml("action: mergePatch\n" + POD_TARGET + """
                patch: {spec: {activeDeadlineSeconds: 30}}
                """));
        assertThat(patch.identity()).isEqualTo("mergePatch Pod demo/main-0 {spec={activeDeadlineSeconds=30}}");
    }

    @Test
    void mergePatchOfOnePath() {
        MergePatch patch = Actions.mergePatch(POD, "spec.resources.requests.storage", "20Gi");
        assertThat(patch.toMap()).isEqualTo(yaml("action: mergePatch\n" + POD_TARGET + """
                patch: {spec: {resources: {requests: {storage: 20Gi}}}}
                """));
        assertThat(Actions.mergePatch(POD, "metadata.finalizers", null).getPatch())
                .isEqualTo(yaml("metadata: {finalizers: null}"));
    }

    @Test
    void delete() {
        Delete delete = Actions.delete(POD);
        assertThat(delete.toMap()).isEqualTo(yaml("action: delete\n" + POD_TARGET));
        assertThat(delete.identity()).isEqualTo("delete Pod demo/main-0");
        assertThat(Actions.delete(NODE).toMap()).isEqualTo(yaml("""
                action: delete
                target: {apiVersion: v1, kind: Node, name: worker-1}
                """));
        assertThat(Actions.delete(NODE).identity()).isEqualTo("delete Node worker-1");
    }

    @Test
    void setStatus() {
        SetStatus status = Actions.setStatus(STORE, "phase", "FailingOver");
        assertThat(status.toMap()).isEqualTo(yaml("action: setStatus\n" + STORE_TARGET + """
                path: phase
                value: FailingOver
                """));
        assertThat(status.identity()).isEqualTo("setStatus Store demo/main phase");
        assertThat(Actions.setStatus(STORE, "backup.lastSlot", "2026-11-30T02:00:00Z").toMap())
                .containsEntry("path", "backup.lastSlot");
        assertThat(Actions.setStatus(STORE, "readyInstances", 2).toMap()).containsEntry("value", 2L);
        assertThat(Actions.setStatus(STORE, "members", List.of("main-0", "main-1")).toMap())
                .containsEntry("value", List.of("main-0", "main-1"));
        assertThat(Actions.setStatus(STORE, "targetPrimary", null).toMap()).containsEntry("value", null);
    }

    @Test
    void setCondition() {
        SetCondition condition = Actions.setCondition(STORE, "Ready", "True", "MembersReady", "3 of 3 members ready");
        assertThat(condition.toMap()).isEqualTo(yaml("action: setCondition\n" + STORE_TARGET + """
                condition: {type: Ready, status: "True", reason: MembersReady, message: 3 of 3 members ready}
                """));
        assertThat(condition.identity()).isEqualTo("setCondition Store demo/main Ready");
        assertThat(condition.getConditionType()).isEqualTo("Ready");
    }

    @Test
    void setConditionFromABoolean() {
        assertThat(Actions.setCondition(STORE, "Ready", true, "R", "m").toMap())
                .isEqualTo(Actions.setCondition(STORE, "Ready", "True", "R", "m").toMap());
        assertThat(Actions.setCondition(STORE, "Ready", false, "R", "m").getStatus()).isEqualTo("False");
    }

    @Test
    void setConditionWithoutReasonOrMessageHasEmptyOnes() {
        assertThat(Actions.setCondition(STORE, "Synced", "Unknown", null, null).toMap()).isEqualTo(
                yaml("action: setCondition\n" + STORE_TARGET
                        + "condition: {type: Synced, status: Unknown, reason: '', message: ''}\n"));
    }

    @Test
    void eventAndWarning() {
        EmitEvent event = Actions.event(STORE, "BackupStarted", "job main-backup-20261130-0200");
        assertThat(event.toMap()).isEqualTo(yaml("action: event\n" + STORE_TARGET + """
                eventType: Normal
                reason: BackupStarted
                message: job main-backup-20261130-0200
                """));
        assertThat(event.identity()).isEqualTo("event Store demo/main Normal BackupStarted job main-backup-20261130-0200");

        EmitEvent warning = Actions.warning(STORE, "FailoverStarted", "promoting main-2");
        assertThat(warning.toMap()).isEqualTo(yaml("action: event\n" + STORE_TARGET + """
                eventType: Warning
                reason: FailoverStarted
                message: promoting main-2
                """));
        assertThat(warning.identity()).isEqualTo("event Store demo/main Warning FailoverStarted promoting main-2");
        assertThat(Actions.event(STORE, "Checked", null).getMessage()).isEmpty();
    }

    @Test
    void aNormalEventAndAWarningWithTheSameTextHaveDifferentIdentities() {
        // Events never conflict: only differing actions with the same identity do.
        assertThat(Actions.event(STORE, "Checked", "ok").identity())
                .isNotEqualTo(Actions.warning(STORE, "Checked", "ok").identity());
    }

    @Test
    void requeue() {
        Requeue requeue = Actions.requeue(STORE, "90s");
        assertThat(requeue.toMap()).isEqualTo(yaml("action: requeue\n" + STORE_TARGET + "after: 1m30s\n"));
        assertThat(requeue.getAfter()).isEqualTo(Duration.ofSeconds(90));
        assertThat(requeue.identity()).isEqualTo("requeue Store demo/main 1m30s");
        assertThat(Actions.requeue(STORE, "0s").toMap()).containsEntry("after", "0s");
    }

    @Test
    void labelAndRemoveLabel() {
        SetMetadataEntry label = Actions.label(POD, "app.kubernetes.io/role", "primary");
        assertThat(label.toMap()).isEqualTo(yaml("action: label\n" + POD_TARGET + """
                key: app.kubernetes.io/role
                value: primary
                """));
        assertThat(label.identity()).isEqualTo("label Pod demo/main-0 app.kubernetes.io/role");
        assertThat(label.getField()).isEqualTo("labels");

        SetMetadataEntry remove = Actions.removeLabel(POD, "app.kubernetes.io/role");
        assertThat(remove.toMap()).isEqualTo(yaml("action: label\n" + POD_TARGET + """
                key: app.kubernetes.io/role
                value: null
                """));
        assertThat(remove.identity()).isEqualTo(label.identity());
        assertThat(remove.getValue()).isNull();
    }

    @Test
    void annotateAndRemoveAnnotation() {
        SetMetadataEntry annotate = Actions.annotate(POD, "runbook.dev/reason", "fenced at 09:00");
        assertThat(annotate.toMap()).isEqualTo(yaml("action: annotate\n" + POD_TARGET + """
                key: runbook.dev/reason
                value: fenced at 09:00
                """));
        assertThat(annotate.identity()).isEqualTo("annotate Pod demo/main-0 runbook.dev/reason");
        assertThat(annotate.getField()).isEqualTo("annotations");
        assertThat(Actions.removeAnnotation(POD, "runbook.dev/reason").toMap())
                .containsEntry("action", "annotate").containsEntry("value", null);
    }

    @Test
    void toStringIsTheIdentity() {
        Action action = Actions.setCondition(STORE, "Ready", "False", "MembersNotReady", "1 of 3");
        assertThat(action).hasToString("setCondition Store demo/main Ready");
    }

    // ---- the form is data ---------------------------------------------------------------------

    @Test
    void theFormCannotBeChangedAtAnyDepth() {
        Map<String, Object> form = Actions.setCondition(STORE, "Ready", "True", "R", "m").toMap();
        assertThatThrownBy(() -> form.put("action", "delete")).isInstanceOf(UnsupportedOperationException.class);
        @SuppressWarnings("unchecked")
        Map<String, Object> target = (Map<String, Object>) form.get("target");
        assertThatThrownBy(() -> target.put("name", "other")).isInstanceOf(UnsupportedOperationException.class);
        @SuppressWarnings("unchecked")
        Map<String, Object> condition = (Map<String, Object>) form.get("condition");
        assertThatThrownBy(() -> condition.put("status", "False")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void changingTheArgumentsAfterwardsChangesNothing() {
        Map<String, Object> data = new LinkedHashMap<>(Map.of("level", "info"));
        Map<String, Object> object = new LinkedHashMap<>(Map.of("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", Map.of("name", "c", "namespace", "demo"), "data", data));
        Apply apply = Actions.apply(object);
        List<Object> members = new ArrayList<>(List.of("main-0"));
        SetStatus status = Actions.setStatus(STORE, "members", members);
        Map<String, Object> patch = new LinkedHashMap<>(Map.of("spec", new LinkedHashMap<>(Map.of("replicas", 3))));
        MergePatch mergePatch = Actions.mergePatch(POD, patch);
        Map<String, Object> vars = new LinkedHashMap<>(Map.of("jobName", "a"));
        ApplyTemplate template = Actions.applyTemplate("job.yaml", vars);

        data.put("level", "debug");
        object.put("kind", "Secret");
        members.add("main-1");
        patch.put("status", Map.of());
        vars.put("jobName", "b");

        assertThat(apply.getObject()).containsEntry("kind", "ConfigMap").containsEntry("data", Map.of("level", "info"));
        assertThat(status.getValue()).isEqualTo(List.of("main-0"));
        assertThat(mergePatch.getPatch()).containsOnlyKeys("spec");
        assertThat(template.getVars()).containsEntry("jobName", "a");
    }

    // ---- sameAs --------------------------------------------------------------------------------

    @Test
    void actionsWithTheSameFormAreTheSameAction() {
        Action a = Actions.label(POD, "role", "primary");
        Action b = Actions.label(POD, "role", "primary");
        assertThat(a.sameAs(b)).isTrue();
        assertThat(b.sameAs(a)).isTrue();
        assertThat(a).as("sameAs is deliberately not equals").isNotEqualTo(b);
        assertThat(Actions.setCondition(STORE, "Ready", true, "R", "m")
                .sameAs(Actions.setCondition(STORE, "Ready", "True", "R", "m"))).isTrue();
        assertThat(Actions.requeue(STORE, "60s").sameAs(Actions.requeue(STORE, "1m"))).isTrue();
    }

    @Test
    void actionsThatDifferInAnyFieldAreNotTheSame() {
        Action label = Actions.label(POD, "role", "primary");
        assertThat(label.sameAs(Actions.label(POD, "role", "replica"))).isFalse();
        assertThat(label.sameAs(Actions.annotate(POD, "role", "primary"))).isFalse();
        assertThat(label.sameAs(Actions.label(STORE, "role", "primary"))).isFalse();
        assertThat(label.sameAs(null)).isFalse();
        assertThat(Actions.setCondition(STORE, "Ready", "True", "R", "m")
                .sameAs(Actions.setCondition(STORE, "Ready", "True", "R", "other message"))).isFalse();
    }

    @Test
    void actionsWithTheSameIdentityCanStillDiffer() {
        Action ready = Actions.setCondition(STORE, "Ready", "True", "MembersReady", "3 of 3");
        Action notReady = Actions.setCondition(STORE, "Ready", "False", "MembersNotReady", "2 of 3");
        assertThat(ready.identity()).isEqualTo(notReady.identity());
        assertThat(ready.sameAs(notReady)).isFalse();
    }

    // ---- validation ----------------------------------------------------------------------------

    @Test
    void aConditionStatusMustBeTrueFalseOrUnknown() {
        assertThatIllegalArgumentException().isThrownBy(() -> Actions.setCondition(STORE, "Ready", "true", "R", "m"))
                .withMessage("setCondition Ready on Store demo/main: status 'true' must be True, False or Unknown");
        assertThatIllegalArgumentException().isThrownBy(() -> Actions.setCondition(STORE, "Ready", (String) null, "R", "m"))
                .withMessage("setCondition Ready on Store demo/main: status 'null' must be True, False or Unknown");
        assertThatIllegalArgumentException().isThrownBy(() -> Actions.setCondition(STORE, " ", "True", "R", "m"))
                .withMessage("setCondition on Store demo/main needs a condition type, e.g. Ready");
    }

    @Test
    void anEventNeedsAKnownTypeAndAReason() {
        assertThatIllegalArgumentException().isThrownBy(() -> new EmitEvent(STORE.getRef(), "Info", "R", "m"))
                .withMessage("event on Store demo/main: type 'Info' must be Normal or Warning");
        assertThatIllegalArgumentException().isThrownBy(() -> Actions.warning(STORE, "", "m"))
                .withMessage("event on Store demo/main needs a reason, e.g. FailoverStarted");
        assertThatIllegalArgumentException().isThrownBy(() -> Actions.event(STORE, null, "m"))
                .withMessage("event on Store demo/main needs a reason, e.g. FailoverStarted");
    }

    @Test
    void aLabelOrAnnotationNeedsAKey() {
        assertThatIllegalArgumentException().isThrownBy(() -> Actions.label(POD, "", "x"))
                .withMessage("label on Pod demo/main-0 needs a key");
        assertThatIllegalArgumentException().isThrownBy(() -> Actions.removeAnnotation(POD, null))
                .withMessage("annotate on Pod demo/main-0 needs a key");
    }

    @Test
    void aTemplateNeedsAName() {
        assertThatIllegalArgumentException().isThrownBy(() -> Actions.applyTemplate(""))
                .withMessage("applyTemplate needs a template name, e.g. \"statefulset.yaml\"");
        assertThatIllegalArgumentException().isThrownBy(() -> Actions.applyTemplate(null, Map.of()));
    }

    @Test
    void aMergePatchNeedsAField() {
        assertThatIllegalArgumentException().isThrownBy(() -> Actions.mergePatch(POD, Map.of()))
                .withMessage("mergePatch of Pod demo/main-0 needs at least one field");
        assertThatIllegalArgumentException().isThrownBy(() -> Actions.mergePatch(POD, "", 1))
                .withMessageStartingWith("an object path must not be empty");
    }

    @Test
    void aRequeueCannotBeNegative() {
        assertThatIllegalArgumentException().isThrownBy(() -> Actions.requeue(STORE, "-5m"))
                .withMessageStartingWith("'-5m' is not a duration");
        assertThatIllegalArgumentException().isThrownBy(() -> new Requeue(STORE.getRef(), Duration.ofSeconds(-1)))
                .withMessage("requeue of Store demo/main needs a duration of zero or more");
        assertThatIllegalArgumentException().isThrownBy(() -> new Requeue(STORE.getRef(), null))
                .withMessage("requeue of Store demo/main needs a duration of zero or more");
    }

    @Test
    void anAppliedObjectNeedsKindAndName() {
        assertThatIllegalArgumentException().isThrownBy(() -> Actions.apply(null)).withMessage("apply needs an object");
        assertThatIllegalArgumentException().isThrownBy(() -> Actions.apply(Map.of("apiVersion", "v1", "metadata", Map.of("name", "x"))))
                .withMessage("an object reference needs a kind");
        assertThatIllegalArgumentException().isThrownBy(() -> Actions.apply(Map.of("apiVersion", "v1", "kind", "ConfigMap")))
                .withMessage("an object reference needs a name");
    }

    @Test
    void aStatusPathMustNotBeEmpty() {
        assertThatIllegalArgumentException().isThrownBy(() -> Actions.setStatus(STORE, "", "x"))
                .withMessageStartingWith("an object path must not be empty");
    }
}
