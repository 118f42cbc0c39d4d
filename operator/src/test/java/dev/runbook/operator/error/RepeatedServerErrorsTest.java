package dev.runbook.operator.error;

import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RepeatedServerErrorsTest {
    static final String PRIMARY = "PostgresCluster demo/pg";
    static final String SERVER = "Internal error occurred: json: cannot unmarshal object into Go struct field Container.image of type string";

    private static ActionFailedException apply500() {
        return new ActionFailedException("apply StatefulSet demo/pg", List.of("Create the StatefulSet"),
                new KubernetesClientException(SERVER, 500, null));
    }

    private static Failure judged(RepeatedServerErrors errors, Throwable error) {
        return errors.judge(PRIMARY, error, ErrorMapping.classify(error));
    }

    @Test
    void theSameActionAnswered500ManyTimesInARowBecomesPermanentWithTheServersMessage() {
        RepeatedServerErrors errors = new RepeatedServerErrors();
        for (int i = 1; i < RepeatedServerErrors.PERMANENT_AFTER; i++) {
            assertThat(judged(errors, apply500()).isTemporary()).as("attempt %d", i).isTrue();
        }
        Failure last = judged(errors, apply500());
        assertThat(last.kind()).isEqualTo(Failure.Kind.PERMANENT);
        assertThat(last.reason()).isEqualTo(Reasons.ACTION_FAILED);
        assertThat(last.message()).startsWith("apply StatefulSet demo/pg: the API server answered 500 5 times in a row")
                .contains(SERVER);
        assertThat(last.rules()).containsExactly("Create the StatefulSet");
    }

    @Test
    void aCycleWithoutErrorOrAnotherErrorStartsTheCountAgain() {
        RepeatedServerErrors errors = new RepeatedServerErrors();
        for (int i = 1; i < RepeatedServerErrors.PERMANENT_AFTER; i++) judged(errors, apply500());
        errors.succeeded(PRIMARY);
        assertThat(judged(errors, apply500()).isTemporary()).isTrue();
        for (int i = 1; i < RepeatedServerErrors.PERMANENT_AFTER; i++) judged(errors, apply500());
        judged(errors, new KubernetesClientException("unreachable", 503, null));
        assertThat(judged(errors, apply500()).isTemporary()).isTrue();
    }

    @Test
    void otherTemporaryErrorsStayTemporary() {
        RepeatedServerErrors errors = new RepeatedServerErrors();
        ActionFailedException unavailable = new ActionFailedException("apply StatefulSet demo/pg", List.of(),
                new KubernetesClientException("Service Unavailable", 503, null));
        for (int i = 0; i < 2 * RepeatedServerErrors.PERMANENT_AFTER; i++) {
            assertThat(judged(errors, unavailable).isTemporary()).isTrue();
        }
    }
}
