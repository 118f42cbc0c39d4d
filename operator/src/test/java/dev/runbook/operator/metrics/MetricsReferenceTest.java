package dev.runbook.operator.metrics;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.operator.error.Failure;
import dev.runbook.operator.health.OperatorPresence;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/metrics.md against what the operator serves on {@code /metrics}, both ways: the registry {@code runbook
 * run} builds ({@link OperatorMetrics#create()}, with the presence gauge its runtime adds), every kind of event
 * recorded once (an applied cycle, a refused one, a bundle activated and reloaded, a leader, the webhook, a
 * controller's work queue), scraped over HTTP from {@link OperatorEndpoints}. Every family of the scrape is in a
 * table of the page and every metric a table lists is in the scrape; the JVM's families the page names are
 * there too. {@code OperatorRuntimeIT} holds a running operator's scrape to the page as well.
 */
class MetricsReferenceTest {
    private final OperatorMetrics metrics = OperatorMetrics.create();
    private final KubernetesClient client = new KubernetesClientBuilder()
            .withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").build()).build();
    private OperatorEndpoints endpoints;

    @BeforeEach
    void everyKindOfEventRecordedOnce() throws Exception {
        // As OperatorRuntime adds it to the registry it serves; the constructor only registers the gauge.
        new OperatorPresence(client, "runbook-system", "operator-a", Clock.systemUTC(), metrics.registry());
        metrics.bundleActivated("web-app", "abc", 1);
        metrics.cycleRecorded(OperatorMetricsTest.APP, OperatorMetricsTest.report(BundleSpec.Mode.ENFORCE, false,
                OperatorMetricsTest.decision(List.of(OperatorMetricsTest.CONFLICT)), List.of(), null,
                new Failure(Failure.Kind.PERMANENT, "PlanRefused", "refused", List.of("A", "B"))));
        // Then an applied cycle, which sets the primary's phase (a refused one leaves the phase it observed: none).
        metrics.cycleRecorded(OperatorMetricsTest.APP, OperatorMetricsTest.applied());
        metrics.reloadAccepted("web-app");
        metrics.reloadRefused("web-app");
        metrics.leading(true);
        metrics.webhookServing(true);
        metrics.shardPrimaries(() -> 7); // as OperatorRuntime adds it with --shards
        metrics.controllerMetrics("web-app"); // a bundle's controller: its work queue's meters
        endpoints = OperatorEndpoints.start(new InetSocketAddress("127.0.0.1", 0), metrics::scrape, List::of, List::of);
    }

    @AfterEach
    void close() {
        if (endpoints != null) endpoints.close();
        metrics.close();
        client.close();
    }

    @Test
    void everyFamilyTheOperatorServesIsInATableOfThePage() throws Exception {
        Set<String> documented = MetricsPage.tables();
        List<String> undocumented = ownFamilies().stream().filter(family -> !documented.contains(family))
                .map(family -> family + " is served on /metrics but no table of docs/metrics.md lists it: add a row").toList();
        assertThat(undocumented).as("metrics the operator serves and docs/metrics.md does not document").isEmpty();
    }

    @Test
    void everyMetricThePageListsIsServed() throws Exception {
        Set<String> served = MetricsPage.families(scrape());
        List<String> gone = MetricsPage.tables().stream().filter(name -> !served.contains(name))
                .map(name -> name + " is in a table of docs/metrics.md but not on /metrics: remove the row, or serve it again").toList();
        assertThat(gone).as("metrics docs/metrics.md documents that the operator does not serve").isEmpty();
    }

    @Test
    void theJvmMetricsThePageNamesAreServed() throws Exception {
        Set<String> served = MetricsPage.families(scrape());
        Set<String> named = MetricsPage.jvm();
        assertThat(named).as("the JVM's metrics docs/metrics.md names").isNotEmpty();
        List<String> gone = named.stream().filter(name -> served.stream().noneMatch(family -> MetricsPage.names(name, family)))
                .filter(name -> !name.equals("jvm_gc_pause_seconds")) // only after the first collection, as the page says
                .map(name -> name + " is named in docs/metrics.md's 'JVM and process' but not on /metrics").toList();
        assertThat(gone).as("JVM metrics the page names that are not served").isEmpty();
    }

    private List<String> ownFamilies() throws Exception {
        return MetricsPage.families(scrape()).stream().filter(family -> !MetricsPage.JVM.matcher(family).matches()).toList();
    }

    private String scrape() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoints.port() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("/metrics").isEqualTo(200);
        return response.body();
    }
}
