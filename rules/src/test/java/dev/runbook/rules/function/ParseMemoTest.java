package dev.runbook.rules.function;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParseMemoTest {
    @Test
    void aTextIsParsedOnceWhileItKeepsItsSlot() {
        AtomicInteger calls = new AtomicInteger();
        ParseMemo<Integer> memo = new ParseMemo<>(text -> {
            calls.incrementAndGet();
            return Integer.parseInt(text);
        });
        assertThat(memo.parse("42")).isEqualTo(42);
        assertThat(memo.parse("42")).isEqualTo(42);
        assertThat(calls).hasValue(1);
    }

    @Test
    void aRefusalIsRepeatedWithTheSameMessage() {
        AtomicInteger calls = new AtomicInteger();
        ParseMemo<Integer> memo = new ParseMemo<>(text -> {
            calls.incrementAndGet();
            throw new IllegalArgumentException("'" + text + "' is not a number");
        });
        assertThatThrownBy(() -> memo.parse("x")).isInstanceOf(IllegalArgumentException.class).hasMessage("'x' is not a number");
        assertThatThrownBy(() -> memo.parse("x")).isInstanceOf(IllegalArgumentException.class).hasMessage("'x' is not a number");
        assertThat(calls).hasValue(1);
    }

    @Test
    void textsThatShareASlotAreEachParsedRight() {
        // "Aa" and "BB" have the same hash code, so they take the same slot in turn.
        ParseMemo<String> memo = new ParseMemo<>(text -> text.toLowerCase());
        for (int i = 0; i < 3; i++) {
            assertThat(memo.parse("Aa")).isEqualTo("aa");
            assertThat(memo.parse("BB")).isEqualTo("bb");
        }
    }

    @Test
    void theFunctionsGiveWhatTheyGaveBefore() {
        for (int i = 0; i < 2; i++) {
            assertThat(Quantities.parse("1Gi")).isEqualByComparingTo("1073741824");
            assertThat(Durations.parse("1h30m")).hasMinutes(90);
            assertThat(Versions.major("16.2")).isEqualTo(16);
            assertThatThrownBy(() -> Durations.parse("garbled")).hasMessageContaining("'garbled'");
        }
    }
}
