package dev.runbook.engine.template;

import dev.runbook.engine.problem.Problem;
import dev.runbook.rules.action.Apply;
import dev.runbook.rules.action.ApplyTemplate;
import dev.runbook.rules.fact.Params;
import dev.runbook.rules.fact.Primary;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Rendering, and the cache that makes a cycle over unchanged inputs render nothing. */
class TemplateRendererTest {
    private static final String CONFIG = """
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: @{primary.name}-config
            data:
              image: "@{primary.str("spec.image", "store:1.0")}"
              level: @{params.str("level")}
              size: "@{size}"
            """;
    private static final String NOT_AN_OBJECT = "- @{primary.name}\n";

    private final TemplateSet set = templates();
    private final TemplateRenderer renderer = new TemplateRenderer(set);

    private static TemplateSet templates() {
        List<Problem> problems = new ArrayList<>();
        TemplateSet set = TemplateSet.compile(Map.of("templates/config.yaml", CONFIG,
                "templates/list.yaml", NOT_AN_OBJECT), problems);
        assertThat(problems).isEmpty();
        return set;
    }

    private static Primary store(String image) {
        return new Primary(Map.of("apiVersion", "example.runbook.dev/v1", "kind", "Store",
                "metadata", Map.of("name", "main", "namespace", "demo"), "spec", Map.of("image", image)));
    }

    private Apply render(Primary primary, String level, String size) {
        return renderer.render(new ApplyTemplate("config.yaml", Map.of("size", size)), primary,
                new Params(Map.of("level", level)));
    }

    @Test
    void unchangedInputsGiveTheSameRenderedObjectWithoutRenderingAgain() {
        Apply first = render(store("store:1.4"), "info", "1Gi");
        Apply again = render(store("store:1.4"), "info", "1Gi");

        assertThat(again).isSameAs(first);
        assertThat(first.getObject()).extracting("metadata").isEqualTo(Map.of("name", "main-config", "namespace", "demo"));
    }

    @Test
    void anyChangedInputRendersAnew() {
        Apply base = render(store("store:1.4"), "info", "1Gi");

        assertThat(render(store("store:1.5"), "info", "1Gi").getObject()).extracting("data")
                .isEqualTo(Map.of("image", "store:1.5", "level", "info", "size", "1Gi"));
        assertThat(render(store("store:1.4"), "debug", "1Gi").getObject()).extracting("data")
                .isEqualTo(Map.of("image", "store:1.4", "level", "debug", "size", "1Gi"));
        assertThat(render(store("store:1.4"), "info", "2Gi").getObject()).extracting("data")
                .isEqualTo(Map.of("image", "store:1.4", "level", "info", "size", "2Gi"));
        // the slot of this primary, template and variables holds its latest input only: back to the first
        // input renders again (the same object), where a primary from the API server never comes back equal
        Apply again = render(store("store:1.4"), "info", "1Gi");
        assertThat(again).isNotSameAs(base);
        assertThat(again.toMap()).isEqualTo(base.toMap());
    }

    @Test
    void aChangedPrimaryReplacesItsEntryInsteadOfAddingOne() {
        for (int version = 1; version <= 100; version++) {
            render(new Primary(Map.of("apiVersion", "example.runbook.dev/v1", "kind", "Store",
                    "metadata", Map.of("name", "main", "namespace", "demo", "resourceVersion", String.valueOf(version)),
                    "spec", Map.of("image", "store:1.4"), "status", Map.of("observed", version))), "info", "1Gi");
        }
        render(store("store:1.4"), "info", "2Gi");
        render(new Primary(Map.of("apiVersion", "example.runbook.dev/v1", "kind", "Store",
                "metadata", Map.of("name", "other", "namespace", "demo"), "spec", Map.of("image", "store:1.4"))), "info", "1Gi");

        // one entry per primary, template and variables: main with 1Gi, main with 2Gi, other; one rendered text each
        assertThat(set.cache().sizes()).containsExactly(3, 3);
    }

    @Test
    void aPrimaryChangeOutsideWhatTheTemplateReadsGivesAnEqualObject() {
        Apply before = render(store("store:1.4"), "info", "1Gi");
        Primary withStatus = new Primary(Map.of("apiVersion", "example.runbook.dev/v1", "kind", "Store",
                "metadata", Map.of("name", "main", "namespace", "demo"), "spec", Map.of("image", "store:1.4"),
                "status", Map.of("phase", "Healthy")));

        Apply after = render(withStatus, "info", "1Gi");
        assertThat(after.toMap()).isEqualTo(before.toMap());
    }

    /** A finishing step that adds one label, counting its calls. */
    private record Labelling(String value, java.util.concurrent.atomic.AtomicInteger calls)
            implements TemplateRenderer.Finishing {
        @Override
        @SuppressWarnings("unchecked")
        public Apply finish(Apply rendered, Primary primary) {
            calls.incrementAndGet();
            Map<String, Object> object = new java.util.LinkedHashMap<>(rendered.getObject());
            Map<String, Object> metadata = new java.util.LinkedHashMap<>((Map<String, Object>) object.get("metadata"));
            metadata.put("labels", Map.of("finished-by", value));
            object.put("metadata", metadata);
            return new Apply(object, rendered.getTemplate());
        }

        @Override public boolean equals(Object other) { return other instanceof Labelling l && l.value.equals(value); }
        @Override public int hashCode() { return value.hashCode(); }
    }

    private static Object labelsOf(Apply apply) {
        return ((Map<?, ?>) apply.getObject().get("metadata")).get("labels");
    }

    @Test
    void theFinishedActionIsCachedSoAnUnchangedInputIsFinishedOnce() {
        var calls = new java.util.concurrent.atomic.AtomicInteger();
        TemplateRenderer finishing = new TemplateRenderer(templates(), new Labelling("a", calls));
        ApplyTemplate request = new ApplyTemplate("config.yaml", Map.of("size", "1Gi"));
        Params params = new Params(Map.of("level", "info"));

        Apply first = finishing.render(request, store("store:1.4"), params);
        Apply again = finishing.render(request, store("store:1.4"), params);

        assertThat(again).isSameAs(first);
        assertThat(calls).hasValue(1);
        assertThat(labelsOf(first)).isEqualTo(Map.of("finished-by", "a"));
    }

    @Test
    void renderersWithDifferentFinishingStepsNeverShareACachedAction() {
        TemplateSet shared = templates();
        ApplyTemplate request = new ApplyTemplate("config.yaml", Map.of("size", "1Gi"));
        Params params = new Params(Map.of("level", "info"));

        Apply labelledA = new TemplateRenderer(shared, new Labelling("a", new java.util.concurrent.atomic.AtomicInteger()))
                .render(request, store("store:1.4"), params);
        Apply labelledB = new TemplateRenderer(shared, new Labelling("b", new java.util.concurrent.atomic.AtomicInteger()))
                .render(request, store("store:1.4"), params);
        Apply plain = new TemplateRenderer(shared).render(request, store("store:1.4"), params);

        assertThat(labelsOf(labelledA)).isEqualTo(Map.of("finished-by", "a"));
        assertThat(labelsOf(labelledB)).isEqualTo(Map.of("finished-by", "b"));
        assertThat(plain.getObject()).extracting("metadata").isEqualTo(Map.of("name", "main-config", "namespace", "demo"));
    }

    @Test
    void aTemplateThatIsNotAnObjectFailsEveryTimeNamingTheFile() {
        ApplyTemplate list = new ApplyTemplate("list.yaml", Map.of());
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> renderer.render(list, store("store:1.4"), new Params(Map.of())))
                    .isInstanceOf(TemplateRenderer.TemplateException.class)
                    .hasMessageContaining("templates/list.yaml");
        }
    }
}
