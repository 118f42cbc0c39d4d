package dev.runbook.rules.fact;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResourceTest {
    private static final Clock CLOCK = new Clock(Instant.parse("2026-11-30T09:00:00Z"));

    /** A resource from YAML text, as a state file would hold it. */
    static Resource resource(String yaml) {
        Map<String, Object> object = new Yaml().load(yaml);
        return new Resource(object);
    }

    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: pg-0
              namespace: demo
              uid: 0a1b-2c3d
              generation: 4
              resourceVersion: "8812"
              creationTimestamp: "2026-11-30T08:00:00Z"
              labels:
                app.kubernetes.io/name: postgres
                role: primary
                version: 16
              annotations:
                postgres.runbook.dev/replayed-lsn: "50331648"
                note: hello
              ownerReferences:
                - {apiVersion: apps/v1, kind: StatefulSet, name: pg, uid: ss-uid, controller: true}
            spec:
              replicas: 3
              enabled: "true"
              ratio: 0.75
              timeout: 5m
              members:
                - name: pg-0
                  lsn: 10
                - name: pg-1
                  lsn: 20
              tags: [a, b]
            status:
              phase: Running
              startTime: "2026-11-30T08:00:05Z"
              conditions:
                - type: Ready
                  status: "False"
                  reason: ContainersNotReady
                  message: containers with unready status
                  lastTransitionTime: "2026-11-30T08:58:30Z"
                - type: PodScheduled
                  status: "True"
                - status: "True"
            """;

    private final Resource pod = resource(POD);

    // ---- identity and metadata -------------------------------------------------------------

    @Test
    void readsIdentityAndMetadata() {
        assertThat(pod.getApiVersion()).isEqualTo("v1");
        assertThat(pod.getKind()).isEqualTo("Pod");
        assertThat(pod.getName()).isEqualTo("pg-0");
        assertThat(pod.getNamespace()).isEqualTo("demo");
        assertThat(pod.getRef()).isEqualTo(ObjectRef.of("v1", "Pod", "demo", "pg-0"));
        assertThat(pod.getUid()).isEqualTo("0a1b-2c3d");
        assertThat(pod.getGeneration()).isEqualTo(4);
        assertThat(pod.getResourceVersion()).isEqualTo("8812");
        assertThat(pod.getCreationTimestamp()).isEqualTo(Instant.parse("2026-11-30T08:00:00Z"));
        assertThat(pod.getDeletionTimestamp()).isNull();
        assertThat(pod.isDeleting()).isFalse();
        assertThat(pod.isPrimary()).isFalse();
        assertThat(pod).hasToString("Pod demo/pg-0");
    }

    @Test
    void missingMetadataHasEmptyDefaults() {
        Resource bare = resource("{kind: Namespace, metadata: {name: prod}}");
        assertThat(bare.getApiVersion()).isEmpty();
        assertThat(bare.getNamespace()).isEmpty();
        assertThat(bare.getUid()).isEmpty();
        assertThat(bare.getResourceVersion()).isEmpty();
        assertThat(bare.getGeneration()).isZero();
        assertThat(bare.getLabels()).isEmpty();
        assertThat(bare.getAnnotations()).isEmpty();
        assertThat(bare.getOwners()).isEmpty();
        assertThat(bare.getConditions()).isEmpty();
        assertThat(bare.getCreationTimestamp()).isNull();
        assertThat(bare).hasToString("Namespace prod");
    }

    @Test
    void kindAndNameAreRequired() {
        assertThatIllegalArgumentException().isThrownBy(() -> resource("{apiVersion: v1, metadata: {name: x}}"))
                .withMessageStartingWith("kind: missing");
        assertThatIllegalArgumentException().isThrownBy(() -> resource("{apiVersion: v1, kind: Pod, metadata: {}}"))
                .withMessage("metadata.name: missing on a Pod: every object needs a name");
        assertThatIllegalArgumentException().isThrownBy(() -> resource("{kind: Pod, metadata: {name: ' '}}"))
                .withMessageStartingWith("metadata.name: missing");
        assertThatIllegalArgumentException().isThrownBy(() -> new Resource(null));
    }

    @Test
    void badMetadataIsAnErrorNamingTheField() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> resource("{kind: Pod, metadata: {name: x, generation: two}}"))
                .withMessage("metadata.generation: 'two' is not a whole number");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> resource("{kind: Pod, metadata: {name: x, labels: [a, b]}}"))
                .withMessageStartingWith("metadata.labels: expected a map of strings");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> resource("{kind: Pod, metadata: {name: x, creationTimestamp: yesterday}}"))
                .withMessageStartingWith("metadata.creationTimestamp: 'yesterday' is not a timestamp");
    }

    @Test
    void timestampsParsedAsDatesByYamlAreReadAsInstants() {
        // An unquoted timestamp in YAML becomes a java.util.Date.
        Resource r = resource("{kind: Pod, metadata: {name: x, creationTimestamp: 2026-11-30T08:00:00Z}}");
        assertThat(r.getCreationTimestamp()).isEqualTo(Instant.parse("2026-11-30T08:00:00Z"));
        assertThat(r.str("metadata.creationTimestamp")).isEqualTo("2026-11-30T08:00:00Z");
    }

    // ---- paths ---------------------------------------------------------------------------

    @Test
    void readsNestedFieldsAndListIndexes() {
        assertThat(pod.get("status.phase")).isEqualTo("Running");
        assertThat(pod.str("spec.members[1].name")).isEqualTo("pg-1");
        assertThat(pod.integer("spec.members[0].lsn", -1)).isEqualTo(10);
        assertThat(pod.str("spec.tags[1]")).isEqualTo("b");
        assertThat(pod.str("status.conditions[0].type")).isEqualTo("Ready");
    }

    @Test
    void aMissingStepGivesNullNotAnError() {
        assertThat(pod.get("spec.nothing.deeper")).isNull();
        assertThat(pod.get("spec.members[7].name")).isNull();
        assertThat(pod.get("spec.members[-1]")).isNull();
        assertThat(pod.get("spec.replicas.deeper")).isNull();
        assertThat(pod.get("spec.replicas[0]")).isNull();
        assertThat(pod.get("spec.members.name")).isNull();
        assertThat(pod.has("spec.nothing")).isFalse();
        assertThat(pod.has("spec.replicas")).isTrue();
    }

    @Test
    void aDottedKeyCannotBeReachedByPathButByLabel() {
        assertThat(pod.get("metadata.labels.app.kubernetes.io/name")).isNull();
        assertThat(pod.label("app.kubernetes.io/name")).isEqualTo("postgres");
    }

    @Test
    void badPathsAreErrors() {
        assertThatIllegalArgumentException().isThrownBy(() -> pod.get(""))
                .withMessageContaining("must not be empty");
        assertThatIllegalArgumentException().isThrownBy(() -> pod.get("spec.members[0"))
                .withMessageContaining("unclosed '['");
        assertThatIllegalArgumentException().isThrownBy(() -> pod.get("spec.members[x]"))
                .withMessageContaining("'[x]' is not a list index");
    }

    // ---- typed getters --------------------------------------------------------------------

    @Test
    void returnTheValueWhenPresent() {
        assertThat(pod.str("status.phase", "Pending")).isEqualTo("Running");
        assertThat(pod.str("spec.replicas")).isEqualTo("3");
        assertThat(pod.integer("spec.replicas", 1)).isEqualTo(3);
        assertThat(pod.longValue("spec.replicas", 1)).isEqualTo(3L);
        assertThat(pod.number("spec.ratio", 1)).isEqualTo(0.75);
        assertThat(pod.number("spec.replicas", 1)).isEqualTo(3.0);
        assertThat(pod.bool("spec.enabled", false)).isTrue();
        assertThat(pod.duration("spec.timeout", "1m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(pod.seconds("spec.timeout", "1m")).isEqualTo(300);
        assertThat(pod.time("status.startTime")).isEqualTo(Instant.parse("2026-11-30T08:00:05Z"));
        assertThat(pod.map("spec.members[0]")).containsEntry("name", "pg-0");
        assertThat(pod.list("spec.tags")).containsExactly("a", "b");
    }

    @Test
    void returnTheDefaultWhenAbsent() {
        assertThat(pod.str("spec.missing")).isNull();
        assertThat(pod.str("spec.missing", "x")).isEqualTo("x");
        assertThat(pod.integer("spec.missing", 7)).isEqualTo(7);
        assertThat(pod.longValue("spec.missing", 7L)).isEqualTo(7L);
        assertThat(pod.number("spec.missing", 1.5)).isEqualTo(1.5);
        assertThat(pod.bool("spec.missing", true)).isTrue();
        assertThat(pod.duration("spec.missing", "1h30m")).isEqualTo(Duration.ofMinutes(90));
        assertThat(pod.seconds("spec.missing", "30s")).isEqualTo(30);
        assertThat(pod.time("spec.missing")).isNull();
        assertThat(pod.map("spec.missing")).isEmpty();
        assertThat(pod.list("spec.missing")).isEmpty();
    }

    @Test
    void wholeNumbersWrittenAsTextOrWithZeroFractionsAreAccepted() {
        Resource r = resource("{kind: X, metadata: {name: x}, spec: {a: '42', b: 3.0, c: ' 8 '}}");
        assertThat(r.integer("spec.a", 0)).isEqualTo(42);
        assertThat(r.integer("spec.b", 0)).isEqualTo(3);
        assertThat(r.longValue("spec.c", 0)).isEqualTo(8);
    }

    @Test
    void aValueOfTheWrongTypeIsAnErrorNamingThePath() {
        assertThatIllegalArgumentException().isThrownBy(() -> pod.integer("status.phase", 1))
                .withMessage("status.phase: 'Running' is not a whole number");
        assertThatIllegalArgumentException().isThrownBy(() -> pod.integer("spec.ratio", 1))
                .withMessage("spec.ratio: 0.75 is not a whole number");
        assertThatIllegalArgumentException().isThrownBy(() -> pod.longValue("spec.tags[0]", 1))
                .withMessage("spec.tags[0]: 'a' is not a whole number");
        assertThatIllegalArgumentException().isThrownBy(() -> pod.number("status.phase", 1))
                .withMessage("status.phase: 'Running' is not a number");
        assertThatIllegalArgumentException().isThrownBy(() -> pod.bool("status.phase", true))
                .withMessage("status.phase: 'Running' is not true or false");
        assertThatIllegalArgumentException().isThrownBy(() -> pod.duration("status.phase", "1m"))
                .withMessageStartingWith("status.phase: 'Running' is not a duration");
        assertThatIllegalArgumentException().isThrownBy(() -> pod.seconds("spec.missing", "soon"))
                .withMessageStartingWith("spec.missing (default): 'soon' is not a duration");
        assertThatIllegalArgumentException().isThrownBy(() -> pod.time("status.phase"))
                .withMessageStartingWith("status.phase: 'Running' is not a timestamp");
        assertThatIllegalArgumentException().isThrownBy(() -> pod.map("spec.tags"))
                .withMessage("spec.tags: expected a map, got [a, b]");
        assertThatIllegalArgumentException().isThrownBy(() -> pod.list("spec.members[0]"))
                .withMessageStartingWith("spec.members[0]: expected a list, got {");
    }

    @Test
    void aNumberTooLargeForItsTypeIsAnErrorNamingThePath() {
        Resource r = resource("{kind: X, metadata: {name: x}, spec: {big: 3000000000, huge: 99999999999999999999999}}");
        assertThat(r.longValue("spec.big", 0)).isEqualTo(3_000_000_000L);
        assertThatIllegalArgumentException().isThrownBy(() -> r.integer("spec.big", 0))
                .withMessageStartingWith("spec.big: 3000000000 is too large");
        assertThatIllegalArgumentException().isThrownBy(() -> r.longValue("spec.huge", 0))
                .withMessageStartingWith("spec.huge: 99999999999999999999999 is too large");
    }

    @Test
    void aNumberWithoutAUnitIsReadAsSecondsInADurationField() {
        Resource r = resource("{kind: X, metadata: {name: x}, spec: {timeout: 90, text: '90'}}");
        assertThat(r.seconds("spec.timeout", "1m")).isEqualTo(90);
        assertThatIllegalArgumentException().isThrownBy(() -> r.seconds("spec.text", "1m"))
                .withMessageStartingWith("spec.text: '90' is not a duration");
    }

    // ---- labels and annotations ------------------------------------------------------------

    @Test
    void readsLabels() {
        assertThat(pod.label("role")).isEqualTo("primary");
        assertThat(pod.label("version")).as("a number in YAML is read as text").isEqualTo("16");
        assertThat(pod.label("missing")).isNull();
        assertThat(pod.hasLabel("role", "primary")).isTrue();
        assertThat(pod.hasLabel("role", "replica")).isFalse();
        assertThat(pod.hasLabel("missing", null)).isFalse();
        assertThat(pod.getLabels()).containsEntry("app.kubernetes.io/name", "postgres").hasSize(3);
    }

    @Test
    void readsAnnotations() {
        assertThat(pod.annotation("note")).isEqualTo("hello");
        assertThat(pod.annotation("missing")).isNull();
        assertThat(pod.hasAnnotation("note")).isTrue();
        assertThat(pod.hasAnnotation("missing")).isFalse();
        assertThat(pod.annotationLong("postgres.runbook.dev/replayed-lsn", 0)).isEqualTo(50331648L);
        assertThat(pod.annotationLong("missing", -1)).isEqualTo(-1L);
    }

    @Test
    void annotationLongNamesTheAnnotationWhenItIsNotANumber() {
        assertThatIllegalArgumentException().isThrownBy(() -> pod.annotationLong("note", 0))
                .withMessage("metadata.annotations.note: 'hello' is not a whole number");
    }

    @Test
    void aNullLabelValueReadsAsEmpty() {
        Resource r = resource("{kind: X, metadata: {name: x, labels: {flag: null}}}");
        assertThat(r.label("flag")).isEmpty();
        assertThat(r.hasLabel("flag", "")).isTrue();
    }

    // ---- owners --------------------------------------------------------------------------
    private final Resource statefulSet = resource("""
            {apiVersion: apps/v1, kind: StatefulSet, metadata: {name: pg, namespace: demo, uid: ss-uid}}""");

    @Test
    void readsOwnerReferences() {
        OwnerRef owner = resource(POD).getOwners().get(0);
        assertThat(owner.getKind()).isEqualTo("StatefulSet");
        assertThat(owner.getName()).isEqualTo("pg");
        assertThat(owner.getUid()).isEqualTo("ss-uid");
        assertThat(owner.isController()).isTrue();
        assertThat(owner.apiVersion()).isEqualTo("apps/v1");
    }

    @Test
    void matchesByUidWhenBothHaveOne() {
        assertThat(resource(POD).isOwnedBy(statefulSet)).isTrue();
        Resource sameNameOtherUid = resource("{kind: StatefulSet, metadata: {name: pg, uid: other}}");
        assertThat(resource(POD).isOwnedBy(sameNameOtherUid)).isFalse();
    }

    @Test
    void matchesByKindAndNameWhenAUidIsMissing() {
        Resource withoutUid = resource("{kind: StatefulSet, metadata: {name: pg}}");
        assertThat(resource(POD).isOwnedBy(withoutUid)).isTrue();
        Resource ownedWithoutUid = resource("""
                {kind: Pod, metadata: {name: p, ownerReferences: [{kind: StatefulSet, name: pg}]}}""");
        assertThat(ownedWithoutUid.isOwnedBy(statefulSet)).isTrue();
        assertThat(ownedWithoutUid.isOwnedBy(resource("{kind: Deployment, metadata: {name: pg}}"))).isFalse();
        assertThat(ownedWithoutUid.isOwnedBy(resource("{kind: StatefulSet, metadata: {name: other}}"))).isFalse();
    }

    @Test
    void anObjectWithoutOwnersIsOwnedByNothing() {
        assertThat(statefulSet.isOwnedBy(statefulSet)).isFalse();
    }

    // ---- conditions ----------------------------------------------------------------------

    @Test
    void readsConditionsAndSkipsEntriesWithoutAType() {
        assertThat(pod.getConditions()).extracting(Condition::getType).containsExactly("Ready", "PodScheduled");
        Condition ready = pod.condition("Ready");
        assertThat(ready.getStatus()).isEqualTo("False");
        assertThat(ready.getReason()).isEqualTo("ContainersNotReady");
        assertThat(ready.getMessage()).isEqualTo("containers with unready status");
        assertThat(ready.getLastTransitionTime()).isEqualTo(Instant.parse("2026-11-30T08:58:30Z"));
        assertThat(ready.isTrue()).isFalse();
        assertThat(ready.isFalse()).isTrue();
        assertThat(ready).hasToString("Ready=False (ContainersNotReady)");
    }

    @Test
    void missingConditionFieldsHaveDefaults() {
        Condition scheduled = pod.condition("PodScheduled");
        assertThat(scheduled.getReason()).isEmpty();
        assertThat(scheduled.getMessage()).isEmpty();
        assertThat(scheduled.getLastTransitionTime()).isNull();
        assertThat(scheduled).hasToString("PodScheduled=True");
    }

    @Test
    void looksUpConditionsByType() {
        assertThat(pod.conditionStatus("Ready")).isEqualTo("False");
        assertThat(pod.conditionStatus("PodScheduled")).isEqualTo("True");
        assertThat(pod.conditionStatus("Initialized")).isNull();
        assertThat(pod.condition("Initialized")).isNull();
        assertThat(pod.isConditionTrue("PodScheduled")).isTrue();
        assertThat(pod.isConditionTrue("Ready")).isFalse();
        assertThat(pod.isConditionTrue("Initialized")).isFalse();
    }

    @Test
    void unknownIsNeitherTrueNorFalse() {
        Condition unknown = new Condition("Ready", "Unknown", null, null, null);
        assertThat(unknown.isTrue()).isFalse();
        assertThat(unknown.isFalse()).isFalse();
    }

    @Test
    void conditionsAreEqualByValue() {
        Instant t = Instant.parse("2026-11-30T08:00:00Z");
        assertThat(new Condition("Ready", "True", null, "", t))
                .isEqualTo(new Condition("Ready", "True", "", null, t))
                .hasSameHashCodeAs(new Condition("Ready", "True", "", null, t))
                .isNotEqualTo(new Condition("Ready", "False", "", "", t));
    }

    @Test
    void aBadTransitionTimeIsAnErrorNamingTheField() {
        assertThatIllegalArgumentException().isThrownBy(() -> resource("""
                {kind: Pod, metadata: {name: x}, status: {conditions: [{type: Ready, status: "True", lastTransitionTime: soon}]}}"""))
                .withMessageStartingWith("lastTransitionTime: 'soon' is not a timestamp");
    }

    // ---- readiness -----------------------------------------------------------------------
    private static String podWithReady(String ready, String extraMetadata) {
        return "{kind: Pod, metadata: {name: p" + extraMetadata + "}, status: {conditions: [{type: Ready, status: '"
                + ready + "'}]}}";
    }

    @Test
    void aPodIsReadyWhenItsReadyConditionIsTrue() {
        assertThat(resource(podWithReady("True", "")).isReady()).isTrue();
        assertThat(resource(podWithReady("False", "")).isReady()).isFalse();
        assertThat(resource(podWithReady("Unknown", "")).isReady()).isFalse();
        assertThat(resource("{kind: Pod, metadata: {name: p}}").isReady()).isFalse();
    }

    @Test
    void aPodIgnoresReplicaCounts() {
        assertThat(resource("{kind: Pod, metadata: {name: p}, spec: {replicas: 0}}").isReady()).isFalse();
    }

    @Test
    void aDeletingObjectIsNeverReady() {
        Resource deleting = resource(podWithReady("True", ", deletionTimestamp: '2026-11-30T08:59:00Z'"));
        assertThat(deleting.isDeleting()).isTrue();
        assertThat(deleting.getDeletionTimestamp()).isEqualTo(Instant.parse("2026-11-30T08:59:00Z"));
        assertThat(deleting.isReady()).isFalse();
        assertThat(resource("""
                {kind: Deployment, metadata: {name: d, deletionTimestamp: '2026-11-30T08:59:00Z'},
                 spec: {replicas: 1}, status: {readyReplicas: 1}}""").isReady()).isFalse();
    }

    @Test
    void aWorkloadIsReadyWhenEnoughReplicasAreReady() {
        assertThat(resource("{kind: StatefulSet, metadata: {name: s}, spec: {replicas: 3}, status: {readyReplicas: 3}}")
                .isReady()).isTrue();
        assertThat(resource("{kind: StatefulSet, metadata: {name: s}, spec: {replicas: 3}, status: {readyReplicas: 2}}")
                .isReady()).isFalse();
        assertThat(resource("{kind: Deployment, metadata: {name: d}, spec: {replicas: 3}}").isReady())
                .as("no readyReplicas means none are ready").isFalse();
        assertThat(resource("{kind: Deployment, metadata: {name: d}, spec: {replicas: 0}}").isReady())
                .as("zero wanted, zero ready").isTrue();
        assertThat(resource("{kind: ReplicaSet, metadata: {name: r}, status: {readyReplicas: 1}}").isReady())
                .as("spec.replicas defaults to 1").isTrue();
    }

    @Test
    void replicaCountsWinOverAReadyCondition() {
        assertThat(resource("""
                {kind: Deployment, metadata: {name: d}, spec: {replicas: 2}, status: {readyReplicas: 1,
                 conditions: [{type: Ready, status: "True"}]}}""").isReady()).isFalse();
    }

    @Test
    void anythingElseIsReadyWhenItsReadyConditionIsTrue() {
        assertThat(resource("{kind: Store, metadata: {name: s}, status: {conditions: [{type: Ready, status: 'True'}]}}")
                .isReady()).isTrue();
        assertThat(resource("{kind: Store, metadata: {name: s}, status: {conditions: [{type: Ready, status: 'False'}]}}")
                .isReady()).isFalse();
        assertThat(resource("{kind: ConfigMap, metadata: {name: c}}").isReady()).isFalse();
    }

    @Test
    void aJobIsCompleteOrFailed() {
        Resource complete = resource("{kind: Job, metadata: {name: j}, status: {conditions: [{type: Complete, status: 'True'}]}}");
        Resource succeeded = resource("{kind: Job, metadata: {name: j}, status: {succeeded: 1}}");
        Resource failed = resource("{kind: Job, metadata: {name: j}, status: {failed: 6, conditions: [{type: Failed, status: 'True'}]}}");
        Resource running = resource("{kind: Job, metadata: {name: j}, status: {active: 1, succeeded: 0}}");
        assertThat(complete.isComplete()).isTrue();
        assertThat(succeeded.isComplete()).isTrue();
        assertThat(failed.isComplete()).isFalse();
        assertThat(failed.isFailed()).isTrue();
        assertThat(running.isComplete()).isFalse();
        assertThat(running.isFailed()).isFalse();
        assertThat(complete.isFailed()).isFalse();
    }

    // ---- age -----------------------------------------------------------------------------
    @Test
    void ageIsTheTimeSinceCreation() {
        Resource pod = resource(POD);
        assertThat(pod.age(CLOCK)).isEqualTo(Duration.ofHours(1));
        assertThat(pod.ageSeconds(CLOCK)).isEqualTo(3600);
    }

    @Test
    void anObjectWithoutACreationTimeHasAgeZero() {
        Resource r = resource("{kind: X, metadata: {name: x}}");
        assertThat(r.age(CLOCK)).isZero();
        assertThat(r.ageSeconds(CLOCK)).isZero();
    }

    @Test
    void anObjectCreatedAfterTheClockHasANegativeAge() {
        Resource r = resource("{kind: X, metadata: {name: x, creationTimestamp: '2026-11-30T09:00:10Z'}}");
        assertThat(r.ageSeconds(CLOCK)).isEqualTo(-10);
    }

    @Test
    void secondsSinceTransitionUsesTheTransitionTime() {
        assertThat(resource(POD).secondsSinceTransition("Ready", CLOCK)).isEqualTo(90);
    }

    @Test
    void secondsSinceTransitionFallsBackToTheAgeThenZero() {
        assertThat(resource(POD).secondsSinceTransition("PodScheduled", CLOCK)).isEqualTo(3600);
        Resource noCreation = resource("{kind: X, metadata: {name: x}, status: {conditions: [{type: Ready, status: 'True'}]}}");
        assertThat(noCreation.secondsSinceTransition("Ready", CLOCK)).isZero();
    }

    @Test
    void secondsSinceTransitionIsMinusOneWithoutTheCondition() {
        assertThat(resource(POD).secondsSinceTransition("Initialized", CLOCK)).isEqualTo(-1);
    }

    // ---- immutability --------------------------------------------------------------------
    @Test
    @SuppressWarnings("unchecked")
    void anObjectFrozenInPlaceIsTakenAsItIsAndStillCannotBeChanged() {
        Map<String, Object> built = new LinkedHashMap<>(Map.of("apiVersion", "v1", "kind", "Pod",
                "metadata", new LinkedHashMap<>(Map.of("name", "pg-1", "labels", new LinkedHashMap<>(Map.of("a", "b")))),
                "spec", new LinkedHashMap<>(Map.of("containers", new ArrayList<>(List.of(
                        new LinkedHashMap<>(Map.of("name", "pg"))))))));
        Map<String, Object> frozen = Values.frozenInPlace(built);

        Resource pod = new Resource(frozen);

        assertThat(pod.getObject()).as("not copied again").isSameAs(frozen);
        assertThatThrownBy(() -> pod.getObject().put("kind", "Service")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> pod.map("metadata.labels").put("c", "d")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> pod.list("spec.containers").add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((Map<String, Object>) pod.list("spec.containers").get(0)).put("image", "x"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(pod.getLabels()).containsExactly(Map.entry("a", "b"));
    }

    @Test
    void getObjectCannotBeChangedAtAnyDepth() {
        Resource pod = resource(POD);
        Map<String, Object> object = pod.getObject();
        assertThatThrownBy(() -> object.put("kind", "Service")).isInstanceOf(UnsupportedOperationException.class);
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) object.get("spec");
        assertThatThrownBy(() -> spec.put("replicas", 5)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> pod.list("spec.members").add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> pod.map("spec.members[0]").remove("name")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> pod.getLabels().put("a", "b")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> pod.getAnnotations().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> pod.getConditions().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> pod.getOwners().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThat(pod.integer("spec.replicas", 0)).isEqualTo(3);
    }

    @Test
    void changingTheSourceMapsAfterwardsChangesNothing() {
        Map<String, Object> labels = new LinkedHashMap<>(Map.of("role", "replica"));
        List<Object> tags = new ArrayList<>(List.of("a"));
        Map<String, Object> spec = new LinkedHashMap<>(Map.of("replicas", 1, "tags", tags));
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("kind", "Pod");
        object.put("metadata", new LinkedHashMap<>(Map.of("name", "p", "labels", labels)));
        object.put("spec", spec);
        Resource pod = new Resource(object);

        labels.put("role", "primary");
        tags.add("b");
        spec.put("replicas", 9);
        object.put("kind", "Service");

        assertThat(pod.getKind()).isEqualTo("Pod");
        assertThat(pod.label("role")).isEqualTo("replica");
        assertThat(pod.str("metadata.labels.role")).isEqualTo("replica");
        assertThat(pod.list("spec.tags")).containsExactly("a");
        assertThat(pod.integer("spec.replicas", 0)).isEqualTo(1);
    }
}
