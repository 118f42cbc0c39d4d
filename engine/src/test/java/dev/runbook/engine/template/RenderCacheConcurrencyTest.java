package dev.runbook.engine.template;

import dev.runbook.engine.problem.Problem;
import dev.runbook.rules.action.Apply;
import dev.runbook.rules.action.ApplyTemplate;
import dev.runbook.rules.fact.Params;
import dev.runbook.rules.fact.Primary;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The render cache under several reconciler threads at once: every render, hit or miss, is what an
 * uncached render gives; the cache stays within its bound; a working set of a thousand primaries'
 * templates stays whole.
 */
class RenderCacheConcurrencyTest {
    private static final String CONFIG = """
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: @{primary.name}-@{part}
            data:
              image: "@{primary.str("spec.image", "store:1.0")}"
              level: @{params.str("level")}
            """;
    private static final int THREADS = 4;
    private static final Params PARAMS = new Params(Map.of("level", "info"));

    private static TemplateSet templates() {
        List<Problem> problems = new ArrayList<>();
        TemplateSet set = TemplateSet.compile(Map.of("templates/config.yaml", CONFIG), problems);
        assertThat(problems).isEmpty();
        return set;
    }

    private static Primary store(int i) {
        return new Primary(Map.of("apiVersion", "example.runbook.dev/v1", "kind", "Store",
                "metadata", Map.of("name", "store-" + i, "namespace", "demo"),
                "spec", Map.of("image", "store:1." + i % 7)));
    }

    private static ApplyTemplate part(int part) {
        return new ApplyTemplate("config.yaml", Map.of("part", "part" + part));
    }

    @Test
    void concurrentRendersOfManyPrimariesAreWhatUncachedRendersGiveAndTheBoundHolds() throws Exception {
        int primaries = RenderCache.MAX_ENTRIES + 1808;
        TemplateSet shared = templates();
        TemplateRenderer cached = new TemplateRenderer(shared);

        List<Apply> rendered = renderFromThreads(primaries,
                i -> cached.render(part(i % 3), store(i), PARAMS));

        for (int i = 0; i < primaries; i++) {
            Apply uncached = new TemplateRenderer(templates()).render(part(i % 3), store(i), PARAMS);
            assertThat(rendered.get(i).getObject()).as("store-%d", i).isEqualTo(uncached.getObject());
            assertThat(rendered.get(i).getTemplate()).isEqualTo(uncached.getTemplate());
        }
        long[] sizes = shared.cache().sizes();
        assertThat(sizes[0]).as("entries by input").isEqualTo(RenderCache.MAX_ENTRIES);
        assertThat(sizes[1]).as("entries by rendered text").isEqualTo(RenderCache.MAX_ENTRIES);
    }

    @Test
    void theTemplatesOfAThousandPrimariesStayCachedWhileThreadsRenderThemAgain() throws Exception {
        int templatesPerPrimary = 5;
        int inputs = 1000 * templatesPerPrimary;
        TemplateRenderer renderer = new TemplateRenderer(templates());
        IntFunction<Apply> render = i -> renderer.render(part(i % templatesPerPrimary), store(i / templatesPerPrimary), PARAMS);

        List<Apply> first = renderFromThreads(inputs, render);
        List<Apply> again = renderFromThreads(inputs, render);

        for (int i = 0; i < inputs; i++) {
            assertThat(again.get(i)).as("input %d rendered again", i).isSameAs(first.get(i));
        }
    }

    /** Renders inputs 0..count-1, each thread over all of them from its own starting point; result i is input i's. */
    private static List<Apply> renderFromThreads(int count, IntFunction<Apply> render) throws Exception {
        List<Apply> results = Collections.synchronizedList(new ArrayList<>(Collections.nCopies(count, null)));
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int start = t * count / THREADS;
                done.add(threads.submit(() -> {
                    for (int k = 0; k < count; k++) {
                        int i = (start + k) % count;
                        Apply apply = render.apply(i);
                        Apply earlier = results.set(i, apply);
                        if (earlier != null) assertThat(apply.getObject()).isEqualTo(earlier.getObject());
                    }
                }));
            }
            for (Future<?> each : done) each.get();
        } finally {
            threads.shutdown();
        }
        return results;
    }
}
