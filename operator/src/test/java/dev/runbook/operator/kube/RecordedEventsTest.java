package dev.runbook.operator.kube;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RecordedEventsTest {
    @Test
    void theLeastRecentlyUsedEventIsForgottenFirst() {
        RecordedEvents recorded = new RecordedEvents(2);
        recorded.remember("a", 1);
        recorded.remember("b", 4);
        recorded.count("a"); // used since b: b is now the least recently used
        recorded.remember("c", 1);

        assertThat(recorded.count("b")).isNull();
        assertThat(recorded.count("a")).isEqualTo(1);
        assertThat(recorded.count("c")).isEqualTo(1);
    }

    @Test
    void aForgottenEventIsUnknown() {
        RecordedEvents recorded = new RecordedEvents(RecordedEvents.DEFAULT_CAPACITY);
        recorded.remember("a", 3);
        recorded.forget("a");
        assertThat(recorded.count("a")).isNull();
    }
}
