package dev.runbook.instance.auth;

import dev.runbook.postgres.contract.PostgresContract;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.runbook.instance.probe.JsonAnswer;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stands in front of an endpoint that only the operator and its backup Jobs may call: the request
 * must carry {@code Authorization: Bearer TOKEN}, a ServiceAccount token for the audience
 * {@link #AUDIENCE} that {@link ServiceAccountTokens} believes, of a caller {@link Callers} admits.
 * 401 without a token or with one that is not believed, 403 for a caller not admitted; the
 * endpoint never sees either. The probes stay open: the kubelet calls them without credentials.
 */
public final class CallerCheck implements HttpHandler {
    private static final Logger LOG = LoggerFactory.getLogger(CallerCheck.class);

    private final ServiceAccountTokens tokens;
    private final Callers callers;
    private final HttpHandler endpoint;

    public CallerCheck(ServiceAccountTokens tokens, Callers callers, HttpHandler endpoint) {
        this.tokens = tokens;
        this.callers = callers;
        this.endpoint = endpoint;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String header = exchange.getRequestHeaders().getFirst("Authorization");
        if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            refuse(exchange, 401, "a ServiceAccount token for the audience " + PostgresContract.AUDIENCE + " is needed (Authorization: Bearer ...)");
            return;
        }
        ServiceAccountTokens.Verdict verdict;
        try {
            verdict = tokens.verify(header.substring(7).strip());
        } catch (RuntimeException e) {
            LOG.warn("cannot check a caller's token: {}", e.getMessage());
            refuse(exchange, 503, "the caller's token cannot be checked now: " + e.getMessage());
            return;
        }
        if (verdict instanceof ServiceAccountTokens.Rejected rejected) {
            refuse(exchange, 401, "the token is not accepted: " + rejected.why());
            return;
        }
        String subject = ((ServiceAccountTokens.Caller) verdict).subject();
        if (!callers.admits(subject)) {
            LOG.warn("refused {} {} to {}", exchange.getRequestMethod(), exchange.getRequestURI().getPath(), subject);
            refuse(exchange, 403, subject + " may not call this endpoint; only " + callers.allowed() + " may");
            return;
        }
        endpoint.handle(exchange);
    }

    private static void refuse(HttpExchange exchange, int code, String why) throws IOException {
        try (exchange) {
            if (code == 401) {
                exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
            }
            JsonAnswer.send(exchange, code, JsonAnswer.error(why));
        }
    }
}
