package dev.runbook.instance.probe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.runbook.instance.decide.Decision;
import dev.runbook.instance.local.LocalState;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;

/**
 * {@code GET /status}: what the last pass found and decided, as JSON, for the operator's tooling
 * (behind a {@link dev.runbook.instance.auth.CallerCheck}): the step and why, readiness, the role it
 * reports, the server's state and position, its WAL receiver, and how long its primary lease has
 * left. {@code 503} before the first pass.
 */
public final class StatusEndpoint implements HttpHandler {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One pass's findings; {@code leaseLeftMillis} is negative when no lease is held. */
    public record Pass(Instant at, Decision decision, LocalState local, long leaseLeftMillis) {
    }

    private final Clock clock;
    private volatile Pass last;

    public StatusEndpoint(Clock clock) {
        this.clock = clock;
    }

    public void passed(Decision decision, LocalState local, long leaseLeftMillis) {
        last = new Pass(clock.instant(), decision, local, leaseLeftMillis);
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod())) {
                JsonAnswer.send(exchange, 405, JsonAnswer.error("use GET /status"));
                return;
            }
            Pass pass = last;
            if (pass == null) {
                JsonAnswer.send(exchange, 503, JsonAnswer.error("no pass has completed yet"));
                return;
            }
            JsonAnswer.send(exchange, 200, json(pass).toString());
        }
    }

    static ObjectNode json(Pass pass) {
        ObjectNode node = JSON.createObjectNode();
        node.put("passAt", pass.at().toString());
        node.put("step", pass.decision().step().name()).put("why", pass.decision().why()).put("ready", pass.decision().ready())
                .put("reportedRole", pass.decision().reportedRole());
        LocalState local = pass.local();
        ObjectNode server = node.putObject("server");
        server.put("data", local.data().name()).put("running", local.running()).put("answering", local.answering())
                .put("inRecovery", local.inRecovery()).put("lsn", local.lsn()).put("following", local.upstream());
        if (local.receiver() != null) {
            server.putObject("walReceiver").put("status", local.receiver().status()).put("sender", local.receiver().sender().toString());
        }
        if (pass.leaseLeftMillis() >= 0) {
            node.putObject("lease").put("leftMillis", pass.leaseLeftMillis());
        }
        return node;
    }
}
