package dev.runbook.rules.function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class DurationsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "500ms       | PT0.5S",
        "30s         | PT30S",
        "5m          | PT5M",
        "1h          | PT1H",
        "1h30m       | PT1H30M",
        "2d          | PT48H",
        "90m         | PT1H30M",
        "1d2h3m4s5ms | PT26H3M4.005S",
        "0s          | PT0S",
        "0ms         | PT0S",
        "PT5M        | PT5M",
        "pt5m        | PT5M",
        "P1DT2H      | PT26H",
        "PT0.25S     | PT0.25S",
    })
    void parsesShortAndIsoForms(String text, String iso) {
        assertThat(Durations.parse(text)).isEqualTo(Duration.parse(iso));
    }

    @Test
    void ignoresSurroundingSpaces() {
        assertThat(Durations.parse("  5m\t")).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void secondsAreWholeSecondsRoundedDown() {
        assertThat(Durations.seconds("5m")).isEqualTo(300);
        assertThat(Durations.seconds("1m30s")).isEqualTo(90);
        assertThat(Durations.seconds("1s999ms")).isEqualTo(1);
        assertThat(Durations.seconds("500ms")).isZero();
        assertThat(Durations.seconds("2d")).isEqualTo(172_800);
    }

    @Test
    void millisAreWholeMilliseconds() {
        assertThat(Durations.millis("1s500ms")).isEqualTo(1500);
        assertThat(Durations.millis("500ms")).isEqualTo(500);
        assertThat(Durations.millis("1h")).isEqualTo(3_600_000);
        assertThat(Durations.millis("PT0.0019S")).isEqualTo(1);
        assertThat(Durations.millis("106751991167d")).isEqualTo(106_751_991_167L * 86_400_000L);
    }

    @Test
    void millisRefusesADurationTooLongForALong() {
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.millis("106751991168d"))
                .withMessage("'106751991168d' is not a duration: it is too long to count in milliseconds;"
                        + " use seconds(...) instead");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "PT0S          | 0s",
        "PT45S         | 45s",
        "PT1H30M       | 1h30m",
        "PT48H         | 2d",
        "PT1.5S        | 1s500ms",
        "PT0.001S      | 1ms",
        "PT25H1M1.001S | 1d1h1m1s1ms",
        "PT1H0.5S      | 1h500ms",
        "PT0.0009S     | 0s",
    })
    void formatsTheShortestForm(String iso, String expected) {
        assertThat(Durations.format(Duration.parse(iso))).isEqualTo(expected);
    }

    @Test
    void formatAndParseRoundTripAtMillisecondPrecision() {
        Random random = new Random(7);
        for (int i = 0; i < 2000; i++) {
            Duration d = Duration.ofMillis(Math.abs(random.nextLong() % 10_000_000_000_000L));
            assertThat(Durations.parse(Durations.format(d))).as("%s", d).isEqualTo(d);
        }
    }

    @Test
    void formatRefusesNullAndNegative() {
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.format(null))
                .withMessage("null is not a duration: pass a Duration, e.g. Durations.parse(\"5m\")");
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.format(Duration.ofMinutes(-5)))
                .withMessageStartingWith("'PT-5M' cannot be formatted: a duration cannot be negative");
    }

    @Test
    void theDocumentedMessageForAnUnknownUnit() {
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse("30x"))
                .withMessage("'30x' is not a duration: use a number and a unit, e.g. 500ms, 30s, 5m, 1h30m, 2d");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "30x                   | use a number and a unit, e.g. 500ms",
        "5 m                   | use a number and a unit",
        "1h 30m                | use a number and a unit",
        "m                     | use a number and a unit",
        "5m30                  | use a number and a unit",
        "30                    | add a unit, e.g. 30s or 30m",
        "1.5h                  | use whole numbers, e.g. 1h30m instead of 1.5h",
        "30m1h                 | write each unit once, from the largest to the smallest, e.g. 1h30m",
        "5m5m                  | write each unit once",
        "5M                    | units are lower case: d, h, m, s and ms",
        "-5m                   | a duration cannot be negative; write it without the minus sign, e.g. 5m",
        "P1M                   | (months and years have no fixed length)",
        "PTx                   | use days, hours, minutes and seconds in ISO-8601, e.g. PT5M",
        "PT-5M                 | a duration cannot be negative",
        "99999999999999999999d | it is too long; use a smaller number",
        "106751991167301d      | it is too long",
    })
    void refusesWhatIsNotADuration(String text, String fix) {
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse(text))
                .withMessageStartingWith("'" + text + "' is not a duration: ")
                .withMessageContaining(fix);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   "})
    void refusesEmptyText(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse(text))
                .withMessage("'" + text + "' is not a duration: give a number and a unit, e.g. 500ms, 30s, 5m, 1h30m, 2d");
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.seconds(text));
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.millis(text));
    }

    @Test
    void refusesNull() {
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.parse(null))
                .withMessage("null is not a duration: give a number and a unit, e.g. 500ms, 30s, 5m, 1h30m, 2d");
    }

    @Test
    void secondsUntilRoundsUpToAWholeSecondAndWaitsAtLeastOne() {
        java.time.Instant now = java.time.Instant.parse("2026-11-30T09:00:00Z");
        assertThat(Durations.secondsUntil(now, now.plusSeconds(15))).isEqualTo("15s");
        assertThat(Durations.secondsUntil(now, now.plusMillis(15_001))).isEqualTo("16s");
        assertThat(Durations.secondsUntil(now, now)).isEqualTo("1s");
        assertThat(Durations.secondsUntil(now, now.minusSeconds(60))).isEqualTo("1s");
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.secondsUntil(null, now))
                .withMessageContaining("secondsUntil needs two times");
    }

    @Test
    void secondsSinceCountsWholeSecondsAndIsZeroWithoutAStart() {
        java.time.Instant now = java.time.Instant.parse("2026-11-30T09:00:00Z");
        assertThat(Durations.secondsSince(now.minusMillis(40_900), now)).isEqualTo(40);
        assertThat(Durations.secondsSince(null, now)).isZero();
        assertThat(Durations.secondsSince(now.plusSeconds(5), now)).isZero();
    }
}
