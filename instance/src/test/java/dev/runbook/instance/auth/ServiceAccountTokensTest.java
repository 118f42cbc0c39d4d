package dev.runbook.instance.auth;

import dev.runbook.postgres.contract.PostgresContract;
import static org.assertj.core.api.Assertions.assertThat;

import java.security.KeyPair;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** Tokens signed with the key the stand-in cluster publishes, and with others: what an instance believes. */
class ServiceAccountTokensTest {
    private static final String OPERATOR = "system:serviceaccount:runbook-system:runbook-operator";
    private static final Instant NOW = Instant.parse("2026-12-04T12:00:00Z");

    private final TestTokens cluster = new TestTokens(NOW);
    private final KeyPair stranger = TestTokens.rsa();
    private final ServiceAccountTokens tokens = new ServiceAccountTokens(cluster, PostgresContract.AUDIENCE, Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void believesATokenOfThisClusterForThisAudience() {
        assertThat(tokens.verify(cluster.token(OPERATOR, PostgresContract.AUDIENCE))).isEqualTo(new ServiceAccountTokens.Caller(OPERATOR));
    }

    @Test
    void refusesATokenForAnotherAudience() {
        // The ServiceAccount token every pod has by default is for the API server: it may not be replayed here.
        assertThat(tokens.verify(cluster.token(OPERATOR, "https://kubernetes.default.svc"))).isInstanceOf(ServiceAccountTokens.Rejected.class);
    }

    @Test
    void refusesAnExpiredToken() {
        assertThat(tokens.verify(TestTokens.sign(cluster.key, "k1", cluster.claims(OPERATOR, PostgresContract.AUDIENCE, -120))))
                .isEqualTo(new ServiceAccountTokens.Rejected("expired"));
    }

    @Test
    void refusesATokenSignedWithAnotherKeyUnderAKnownKeyId() {
        assertThat(tokens.verify(TestTokens.sign(stranger, "k1", cluster.claims(OPERATOR, PostgresContract.AUDIENCE, 600))))
                .isEqualTo(new ServiceAccountTokens.Rejected("the signature does not match"));
    }

    @Test
    void refusesUnsignedTokensAndOtherIssuers() {
        assertThat(tokens.verify(TestTokens.unsigned(cluster.claims(OPERATOR, PostgresContract.AUDIENCE, 600))))
                .isInstanceOf(ServiceAccountTokens.Rejected.class);
        assertThat(tokens.verify(TestTokens.sign(cluster.key, "k1", cluster.claims(OPERATOR, PostgresContract.AUDIENCE, 600).put("iss", "https://elsewhere"))))
                .isInstanceOf(ServiceAccountTokens.Rejected.class);
        assertThat(tokens.verify("not.a-token")).isInstanceOf(ServiceAccountTokens.Rejected.class);
    }

    @Test
    void unknownKeyIdsDoNotMakeEveryRequestReadTheKeysAgain() {
        for (int i = 0; i < 20; i++) {
            tokens.verify(TestTokens.sign(stranger, "made-up-" + i, cluster.claims(OPERATOR, PostgresContract.AUDIENCE, 600)));
        }
        assertThat(cluster.keyReads.get()).isEqualTo(1);
    }
}
