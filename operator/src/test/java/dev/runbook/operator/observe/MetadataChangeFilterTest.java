package dev.runbook.operator.observe;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MetadataChangeFilterTest {
    final MetadataChangeFilter filter = new MetadataChangeFilter();

    static ConfigMap object(long generation, Map<String, String> labels, Map<String, String> annotations, String resourceVersion) {
        return new ConfigMapBuilder().withNewMetadata().withName("x").withGeneration(generation)
                .withLabels(labels).withAnnotations(annotations).withResourceVersion(resourceVersion).endMetadata().build();
    }

    @Test
    void aChangeOfStatusAloneStartsNoCycle() {
        assertThat(filter.accept(object(1, Map.of(), Map.of(), "2"), object(1, Map.of(), Map.of(), "1"))).isFalse();
    }

    @Test
    void aNewGenerationOrChangedLabelsOrAnnotationsStartACycle() {
        ConfigMap before = object(1, Map.of(), Map.of(), "1");
        assertThat(filter.accept(object(2, Map.of(), Map.of(), "2"), before)).isTrue();
        assertThat(filter.accept(object(1, Map.of("a", "b"), Map.of(), "2"), before)).isTrue();
        assertThat(filter.accept(object(1, Map.of(), Map.of("runbook.dev/paused", "true"), "2"), before)).isTrue();
    }

    @Test
    void aDeletionStartsACycle() {
        ConfigMap deleting = object(1, Map.of(), Map.of(), "2");
        deleting.getMetadata().setDeletionTimestamp("2026-11-30T09:00:00Z");
        assertThat(filter.accept(deleting, object(1, Map.of(), Map.of(), "1"))).isTrue();
    }

    @Test
    void theFinalizerJosdkAddsBeforeTheFirstCycleStartsIt() {
        ConfigMap held = object(1, Map.of(), Map.of(), "2");
        held.getMetadata().setFinalizers(java.util.List.of("runbook.dev/app-release"));
        assertThat(filter.accept(held, object(1, Map.of(), Map.of(), "1"))).isTrue();
    }
}
