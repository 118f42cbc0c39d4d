package dev.runbook.operator.kube;

import dev.runbook.operator.testkit.SteppedClock;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.StandardHttpClientBuilder;
import io.fabric8.kubernetes.client.utils.TokenRefreshInterceptor;
import io.fabric8.kubernetes.client.utils.HttpClientUtils;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Without a token the configuration is read again once a minute, not before every request; a token
 * found by such a look, or there from the start, is sent on every request as fabric8 sends it.
 */
class ThrottledTokenRefreshTest {
    /** A configuration that counts how often it is read again, and whose fresh copy carries {@link #next}. */
    static final class CountingConfig extends Config {
        int refreshes;
        String next;

        CountingConfig() {
            super(false);
        }

        @Override
        public Config refresh() {
            refreshes++;
            CountingConfig fresh = new CountingConfig();
            fresh.setAutoOAuthToken(next);
            return fresh;
        }
    }

    /** The headers one request was given. */
    static final class Request implements BasicBuilder {
        final List<String> headers = new ArrayList<>();

        @Override public BasicBuilder uri(URI uri) { return this; }
        @Override public BasicBuilder header(String name, String value) { headers.add(name + ": " + value); return this; }
        @Override public BasicBuilder setHeader(String name, String value) { headers.add(name + ": " + value); return this; }
    }

    private final SteppedClock clock = new SteppedClock();

    /** fabric8's own minute is long over (EPOCH): whenever it is asked, fabric8 reads the configuration. */
    private ThrottledTokenRefresh interceptor(Config config) {
        return new ThrottledTokenRefresh(config, HttpClientUtils.getHttpClientFactory(), Instant.EPOCH, clock);
    }

    private static List<String> send(ThrottledTokenRefresh interceptor) {
        Request request = new Request();
        interceptor.before(request, null, null);
        return request.headers;
    }

    @Test
    void withoutATokenTheConfigurationIsReadOncePerMinute() {
        CountingConfig config = new CountingConfig();
        ThrottledTokenRefresh interceptor = interceptor(config);

        for (int i = 0; i < 100; i++) assertThat(send(interceptor)).isEmpty();
        assertThat(config.refreshes).as("reads in the first minute").isZero();

        clock.advance(ThrottledTokenRefresh.LOOK_EVERY.plusSeconds(1));
        for (int i = 0; i < 100; i++) assertThat(send(interceptor)).isEmpty();
        assertThat(config.refreshes).as("reads once the minute has passed, for 100 requests").isEqualTo(1);

        clock.advance(Duration.ofSeconds(30));
        send(interceptor);
        assertThat(config.refreshes).as("half a minute after the last read").isEqualTo(1);
        clock.advance(Duration.ofSeconds(31));
        send(interceptor);
        assertThat(config.refreshes).as("a minute after the last read").isEqualTo(2);
    }

    @Test
    void aTokenThatAppearsIsFoundAtTheNextLookAndSentFromThenOn() {
        CountingConfig config = new CountingConfig();
        ThrottledTokenRefresh interceptor = interceptor(config);
        config.next = "rotated";

        assertThat(send(interceptor)).isEmpty();
        clock.advance(ThrottledTokenRefresh.LOOK_EVERY.plusSeconds(1));
        assertThat(send(interceptor)).containsExactly("Authorization: Bearer rotated");
        assertThat(send(interceptor)).containsExactly("Authorization: Bearer rotated");
        assertThat(config.getAutoOAuthToken()).isEqualTo("rotated");
    }

    @Test
    void aTokenFromTheStartIsSentOnEveryRequestAndNothingIsRead() {
        CountingConfig config = new CountingConfig();
        config.setOauthToken("given");
        ThrottledTokenRefresh interceptor = interceptor(config);

        for (int i = 0; i < 3; i++) assertThat(send(interceptor)).containsExactly("Authorization: Bearer given");
        assertThat(config.refreshes).as("a token the user gave is never refreshed, as in fabric8").isZero();
    }

    @Test
    void theOperatorsClientsUseIt() {
        Config config = new CountingConfig();
        config.setMasterUrl("https://127.0.0.1:1");
        try (var client = Kubeconfig.client(config)) {
            // What the client's HTTP client (and any client derived from it) runs before each request.
            var interceptors = ((StandardHttpClientBuilder<?, ?, ?>) client.getHttpClient().newBuilder()).getInterceptors();
            assertThat(interceptors.get(TokenRefreshInterceptor.NAME)).isInstanceOf(ThrottledTokenRefresh.class);
        }
    }
}
