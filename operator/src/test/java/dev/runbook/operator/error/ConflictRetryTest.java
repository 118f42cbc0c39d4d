package dev.runbook.operator.error;

import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConflictRetryTest {
    /** A write against an object that changes under it: refused with 409 the first {@code conflicts} times. */
    static final class ChangingObject implements Supplier<String> {
        private final int conflicts;
        private final int failWith;
        int calls;

        ChangingObject(int conflicts) { this(conflicts, 409); }

        ChangingObject(int conflicts, int failWith) {
            this.conflicts = conflicts;
            this.failWith = failWith;
        }

        @Override
        public String get() {
            calls++;
            if (calls <= conflicts) throw new KubernetesClientException("the object has been modified", failWith, null);
            return "written on attempt " + calls;
        }
    }

    @Test
    void aWriteThatMeetsFewerConflictsThanTheAttemptsGoesThroughOnFreshState() {
        ChangingObject object = new ChangingObject(2);

        assertThat(new ConflictRetry(3).run(object, n -> "never")).isEqualTo("written on attempt 3");
        assertThat(object.calls).isEqualTo(3);
    }

    @Test
    void asManyConflictsInARowAsTheAttemptsStopTheCycleAsATemporaryConflict() {
        ChangingObject object = new ChangingObject(5);

        assertThatThrownBy(() -> new ConflictRetry(4).run(object, n -> "shop kept changing (" + n + " conflicts)"))
                .isInstanceOfSatisfying(TemporaryException.class, e -> {
                    assertThat(e.failure().kind()).isEqualTo(Failure.Kind.TEMPORARY);
                    assertThat(e.failure().reason()).isEqualTo(Reasons.CONFLICT);
                    assertThat(e.failure().message()).isEqualTo("shop kept changing (4 conflicts)");
                    assertThat(e.getCause()).isInstanceOf(KubernetesClientException.class);
                });
        assertThat(object.calls).isEqualTo(4);
    }

    @Test
    void theDefaultTriesThreeTimes() {
        ChangingObject object = new ChangingObject(Integer.MAX_VALUE);

        assertThatThrownBy(() -> ConflictRetry.DEFAULT.run(object, n -> "gave up")).isInstanceOf(TemporaryException.class);
        assertThat(object.calls).isEqualTo(ConflictRetry.DEFAULT_ATTEMPTS).isEqualTo(3);
    }

    @Test
    void otherErrorsAreNotRetried() {
        ChangingObject object = new ChangingObject(1, 422);

        assertThatThrownBy(() -> ConflictRetry.DEFAULT.run(object, n -> "never"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(422));
        assertThat(object.calls).isEqualTo(1);
    }

    @Test
    void atLeastOneAttemptIsRequired() {
        assertThatThrownBy(() -> new ConflictRetry(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1");
    }
}
