package dev.runbook.operator.testkit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;

import java.util.ArrayList;
import java.util.List;

/**
 * A client of the test cluster that writes down every request it sends, as {@code METHOD path}, except
 * the informers' watches (they stay open): what a test counts to show what the operator asks of the API
 * server. Safe to read from the test thread while the operator's threads send.
 */
public final class CountingClient {
    private final List<String> requests = new ArrayList<>();
    private final KubernetesClient client;

    public CountingClient(TestCluster cluster) {
        // read as the operator's own client reads (Kubeconfig.client): watch events generically
        this.client = new KubernetesClientBuilder().withConfig(cluster.client().getConfiguration())
                .withKubernetesSerialization(new dev.runbook.operator.kube.GenericWatchEvents())
                .withHttpClientBuilderConsumer(builder -> builder.addOrReplaceInterceptor("count-requests", new Interceptor() {
                    @Override
                    public void before(BasicBuilder basic, HttpRequest request, RequestTags tags) {
                        String query = request.uri().getQuery();
                        if (query == null || !query.contains("watch=true")) {
                            synchronized (requests) {
                                requests.add(request.method() + " " + request.uri().getPath());
                            }
                        }
                    }
                })).build();
    }

    /** The client to give the code under test; close it when done. */
    public KubernetesClient client() {
        return client;
    }

    /** The requests sent since the last call, oldest first; forgets them. */
    public List<String> drain() {
        synchronized (requests) {
            List<String> sent = List.copyOf(requests);
            requests.clear();
            return sent;
        }
    }
}
