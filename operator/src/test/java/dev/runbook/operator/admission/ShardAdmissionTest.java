package dev.runbook.operator.admission;

import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.bundle.PrimaryKind;
import dev.runbook.operator.shard.HashRing;
import dev.runbook.operator.shard.ShardLabels;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GroupVersionKind;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionRequestBuilder;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReview;
import io.fabric8.kubernetes.api.model.admission.v1.AdmissionReviewBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The shard webhook's decisions at create, and the JSON patch it answers with. */
class ShardAdmissionTest {
    static final PrimaryKind CLUSTERS = new PrimaryKind(new Kind("postgres.runbook.dev/v1", "PostgresCluster"), "postgresclusters", true);
    static final Set<String> MEMBERS = Set.of("runbook-0", "runbook-1", "runbook-2");

    final Map<String, Map<String, String>> ownerLabels = new HashMap<>();
    Set<String> live = MEMBERS;
    final ShardAdmission admission = new ShardAdmission(() -> List.of(CLUSTERS), () -> live,
            (apiVersion, kind, namespace, name) -> Optional.ofNullable(ownerLabels.get(kind + " " + namespace + "/" + name)));

    @Test
    void aNewPrimaryGetsTheMemberTheSharderWouldGiveIt() {
        for (int i = 0; i < 30; i++) {
            String name = "pg-" + i;
            String ringOwner = HashRing.of(MEMBERS).ownerOf(ShardLabels.keyOf("postgres.runbook.dev", "PostgresCluster", "db", name)).orElseThrow();
            assertThat(admission.shardOf("postgres.runbook.dev", "PostgresCluster", "db", object(name, null, null))).contains(ringOwner);
        }
    }

    @Test
    void aPrimaryIsLeftForTheSharderWhenNoMemberIsLiveOrItsNameIsNotKnownYet() {
        live = Set.of();
        assertThat(admission.shardOf("postgres.runbook.dev", "PostgresCluster", "db", object("pg", null, null))).isEmpty();
        live = MEMBERS;
        assertThat(admission.shardOf("postgres.runbook.dev", "PostgresCluster", "db", object(null, null, null)))
                .as("generateName: the name, and so the hash key, comes after admission").isEmpty();
    }

    @Test
    void anObjectThatCarriesTheLabelKeepsIt() {
        assertThat(admission.shardOf("postgres.runbook.dev", "PostgresCluster", "db",
                object("pg", Map.of(ShardLabels.SHARD, "runbook-9"), null))).isEmpty();
    }

    @Test
    void aPodGetsItsControllersShardAndNoOtherOwners() {
        ownerLabels.put("StatefulSet db/pg", Map.of(ShardLabels.SHARD, "runbook-1", "app", "pg"));
        ownerLabels.put("ConfigMap db/notes", Map.of(ShardLabels.SHARD, "runbook-2"));
        ownerLabels.put("ReplicaSet db/web", Map.of("app", "web"));

        assertThat(admission.shardOf("", "Pod", "db", object("pg-0", Map.of("app", "pg"), List.of(
                owner("ConfigMap", "notes", false), owner("StatefulSet", "pg", true))))).contains("runbook-1");
        assertThat(admission.shardOf("", "Pod", "db", object("pg-1", null, List.of(owner("ConfigMap", "notes", false)))))
                .as("an owner that is not the controller").isEmpty();
        assertThat(admission.shardOf("", "Pod", "db", object("web-1", null, List.of(owner("ReplicaSet", "web", true)))))
                .as("a controller without the label").isEmpty();
        assertThat(admission.shardOf("", "Pod", "db", object("gone-1", null, List.of(owner("StatefulSet", "gone", true)))))
                .as("a controller that cannot be read").isEmpty();
        assertThat(admission.shardOf("", "Pod", "db", object("bare", null, null))).isEmpty();
    }

    @Test
    void theAnswerAllowsAndPatchesTheLabelIn() {
        ownerLabels.put("StatefulSet db/pg", Map.of(ShardLabels.SHARD, "runbook-1"));

        AdmissionReview unlabelled = admission.answer(review("CREATE", object("pg-0", null, List.of(owner("StatefulSet", "pg", true)))));
        assertThat(unlabelled.getResponse().getAllowed()).isTrue();
        assertThat(unlabelled.getResponse().getPatchType()).isEqualTo("JSONPatch");
        assertThat(decoded(unlabelled)).isEqualTo("[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"runbook.dev/shard\":\"runbook-1\"}}]");

        AdmissionReview labelled = admission.answer(review("CREATE", object("pg-0", Map.of("app", "pg"), List.of(owner("StatefulSet", "pg", true)))));
        assertThat(decoded(labelled)).as("the one label added, the others kept")
                .isEqualTo("[{\"op\":\"add\",\"path\":\"/metadata/labels/runbook.dev~1shard\",\"value\":\"runbook-1\"}]");
    }

    @Test
    void anUpdateOrAFailureIsAllowedUntouched() {
        ownerLabels.put("StatefulSet db/pg", Map.of(ShardLabels.SHARD, "runbook-1"));
        AdmissionReview update = admission.answer(review("UPDATE", object("pg-0", null, List.of(owner("StatefulSet", "pg", true)))));
        assertThat(update.getResponse().getAllowed()).isTrue();
        assertThat(update.getResponse().getPatch()).isNull();

        ShardAdmission failing = new ShardAdmission(() -> List.of(CLUSTERS), () -> { throw new IllegalStateException("no Leases"); },
                (apiVersion, kind, namespace, name) -> Optional.empty());
        AdmissionReview failed = failing.answer(new AdmissionReviewBuilder().withNewRequest().withUid("u-2").withOperation("CREATE")
                .withKind(new GroupVersionKind("postgres.runbook.dev", "PostgresCluster", "v1")).withNamespace("db")
                .withObject(object("pg", null, null)).endRequest().build());
        assertThat(failed.getResponse().getAllowed()).as("left for the sharder, never refused").isTrue();
        assertThat(failed.getResponse().getPatch()).isNull();
        assertThat(failed.getResponse().getUid()).isEqualTo("u-2");
    }

    private static String decoded(AdmissionReview review) {
        return new String(Base64.getDecoder().decode(review.getResponse().getPatch()), StandardCharsets.UTF_8);
    }

    private static AdmissionReview review(String operation, GenericKubernetesResource pod) {
        return new AdmissionReviewBuilder().withRequest(new AdmissionRequestBuilder().withUid("u-1").withOperation(operation)
                .withKind(new GroupVersionKind("", "Pod", "v1")).withNamespace("db").withName(pod.getMetadata().getName())
                .withObject(new KubernetesSerialization().convertValue(pod, GenericKubernetesResource.class)).build()).build();
    }

    private static io.fabric8.kubernetes.api.model.OwnerReference owner(String kind, String name, boolean controller) {
        return new io.fabric8.kubernetes.api.model.OwnerReferenceBuilder().withApiVersion(kind.equals("StatefulSet") ? "apps/v1" : "v1")
                .withKind(kind).withName(name).withUid("uid-" + name).withController(controller).build();
    }

    private static GenericKubernetesResource object(String name, Map<String, String> labels,
                                                    List<io.fabric8.kubernetes.api.model.OwnerReference> owners) {
        return new GenericKubernetesResourceBuilder().withApiVersion("v1").withKind("Pod").withNewMetadata().withName(name)
                .withNamespace("db").withLabels(labels).withOwnerReferences(owners).endMetadata().build();
    }
}
