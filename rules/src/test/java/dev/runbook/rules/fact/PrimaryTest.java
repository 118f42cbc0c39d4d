package dev.runbook.rules.fact;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class PrimaryTest {
    private static final Map<String, Object> STORE = Map.of(
            "apiVersion", "example.runbook.dev/v1", "kind", "Store",
            "metadata", Map.of("name", "main", "namespace", "demo"),
            "spec", Map.of("instances", 3));

    @Test
    void aPrimaryIsPrimaryAndAPlainResourceIsNot() {
        assertThat(new Primary(STORE).isPrimary()).isTrue();
        assertThat(new Resource(STORE).isPrimary()).isFalse();
    }

    @Test
    void aPrimaryReadsLikeAnyResource() {
        Primary store = new Primary(STORE);
        assertThat(store).isInstanceOf(Resource.class).hasToString("Store demo/main");
        assertThat(store.getRef()).isEqualTo(ObjectRef.of("example.runbook.dev/v1", "Store", "demo", "main"));
        assertThat(store.integer("spec.instances", 1)).isEqualTo(3);
    }

    @Test
    void aPrimaryNeedsKindAndNameToo() {
        assertThatIllegalArgumentException().isThrownBy(() -> new Primary(Map.of("kind", "Store", "metadata", Map.of())))
                .withMessageStartingWith("metadata.name: missing on a Store");
    }
}
