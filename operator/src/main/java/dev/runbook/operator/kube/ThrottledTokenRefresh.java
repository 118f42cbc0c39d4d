package dev.runbook.operator.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.utils.TokenRefreshInterceptor;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * fabric8's {@link TokenRefreshInterceptor}, which puts the bearer token on every request and looks for
 * a newer one (a rotated service-account token, a kubeconfig's) once a minute, with one change: when the
 * client has no token at all, it looks once a minute too.
 *
 * <p>fabric8 counts its minute from the last time it <em>found</em> a token. A client that authenticates
 * with a certificate (the kubeconfig of kind, of testenv, of a cluster administrator) never finds one, so
 * fabric8 looks before every request: it reads the configuration afresh (the kubeconfig files parsed as
 * YAML, the environment, the service-account files). At 100 clusters that was 7% of the operator's CPU
 * while they converged (docs/performance-log.md#where-the-operators-cpu-goes). Here, with no token, basic
 * credentials or OIDC provider, a request costs nothing and the look happens at most once per
 * {@link #LOOK_EVERY}, so a token that appears later is still picked up; with a token, everything is
 * fabric8's own. A 401 answer makes fabric8 look at once, as before.
 */
public final class ThrottledTokenRefresh extends TokenRefreshInterceptor {
    /** fabric8's own interval between looks for a newer token. */
    public static final Duration LOOK_EVERY = Duration.ofMinutes(1);

    private final Clock clock;
    private volatile Instant lastLook;

    /**
     * @param lastRefresh when fabric8 should consider the token last refreshed (its constructor's argument)
     * @param clock       the clock the looks without a token are spaced by
     */
    public ThrottledTokenRefresh(Config config, HttpClient.Factory factory, Instant lastRefresh, Clock clock) {
        super(config, factory, lastRefresh);
        this.clock = clock;
        this.lastLook = clock.instant();
    }

    /** Puts this interceptor in place of fabric8's in the HTTP client a {@code KubernetesClientBuilder} builds. */
    public static Consumer<HttpClient.Builder> replacing(Config config, HttpClient.Factory factory, Clock clock) {
        return builder -> builder.addOrReplaceInterceptor(TokenRefreshInterceptor.NAME,
                new ThrottledTokenRefresh(config, factory, clock.instant(), clock));
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        if (tokenless() && !lookDue()) return; // fabric8 would set no header, and look for a token in vain
        super.before(builder, request, tags);
    }

    /** No token, no basic credentials and no OIDC provider: fabric8's {@code before} would only look for a token. */
    private boolean tokenless() {
        return config.getOauthTokenProvider() == null && empty(config.getOauthToken()) && empty(config.getAutoOAuthToken())
                && !isBasicAuth() && !useRemoteRefresh(config);
    }

    private boolean lookDue() {
        Instant now = clock.instant();
        if (now.isBefore(lastLook.plus(LOOK_EVERY))) return false;
        lastLook = now;
        return true;
    }

    private static boolean empty(String value) {
        return value == null || value.isEmpty();
    }
}
