package dev.runbook.operator.health;

import dev.runbook.operator.concurrent.DaemonThreads;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Whether the API server answers: a cheap request ({@code GET /version}) every {@link #PERIOD}, off the
 * probe's thread, so that /readyz answers at once and says "not ready" while the API server is
 * unreachable. The informers alone do not tell: they keep retrying their watches and still count as
 * healthy. Not ready when the last request failed, or when none succeeded for {@link #STALE_AFTER}
 * (a request hanging).
 */
public final class ApiServerProbe implements AutoCloseable {
    public static final Duration PERIOD = Duration.ofSeconds(5);
    public static final Duration STALE_AFTER = PERIOD.multipliedBy(3);

    /** The request; throws when the API server does not answer. */
    public interface Request {
        void send() throws Exception;
    }

    private final Request request;
    private final String server;
    private final Clock clock;
    private final Instant created;
    private ScheduledExecutorService timer;
    private Instant lastSuccess;
    private String lastError;

    public ApiServerProbe(Request request, String server, Clock clock) {
        this.request = request;
        this.server = server;
        this.clock = clock;
        this.created = clock.instant();
    }

    /** Probes now and then every {@link #PERIOD}, on a daemon thread. */
    public synchronized ApiServerProbe start() {
        if (timer != null) return this;
        timer = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("runbook-api-probe"));
        timer.scheduleWithFixedDelay(this::probe, 0, PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    /** One request, its outcome recorded. */
    public void probe() {
        try {
            request.send();
            synchronized (this) {
                lastSuccess = clock.instant();
                lastError = null;
            }
        } catch (Exception e) {
            synchronized (this) {
                lastError = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            }
        }
    }

    /** For readiness: empty while the API server answers. */
    public synchronized List<String> problems() {
        if (lastError != null) {
            return List.of("the API server " + server + " does not answer: " + lastError
                    + (lastSuccess == null ? "" : " (last answer " + lastSuccess + ")"));
        }
        Instant since = lastSuccess == null ? created : lastSuccess;
        if (Duration.between(since, clock.instant()).compareTo(STALE_AFTER) > 0) {
            return List.of("the API server " + server + " has not answered since " + since);
        }
        return List.of();
    }

    @Override
    public synchronized void close() {
        if (timer != null) timer.shutdownNow();
    }
}
