package dev.runbook.rules.function;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNoException;

class CronTest {

    private static Instant t(String iso) {
        return Instant.parse(iso);
    }

    @Nested
    class Slots {

        @Test
        void lastSlotIsTheMostRecentScheduledTime() {
            assertThat(Cron.lastSlot("0 2 * * *", t("2026-11-30T09:15:00Z"))).isEqualTo(t("2026-11-30T02:00:00Z"));
            assertThat(Cron.lastSlot("0 2 * * *", t("2026-11-30T01:59:59Z"))).isEqualTo(t("2026-11-29T02:00:00Z"));
        }

        @Test
        void lastSlotIncludesNowAndIgnoresSecondsWithinTheMinute() {
            assertThat(Cron.lastSlot("0 2 * * *", t("2026-11-30T02:00:00Z"))).isEqualTo(t("2026-11-30T02:00:00Z"));
            assertThat(Cron.lastSlot("0 2 * * *", t("2026-11-30T02:00:59.999Z"))).isEqualTo(t("2026-11-30T02:00:00Z"));
            assertThat(Cron.lastSlot("* * * * *", t("2026-11-30T09:15:42Z"))).isEqualTo(t("2026-11-30T09:15:00Z"));
        }

        @Test
        void nextSlotIsStrictlyAfter() {
            assertThat(Cron.nextSlot("0 2 * * *", t("2026-11-30T02:00:00Z"))).isEqualTo(t("2026-12-01T02:00:00Z"));
            assertThat(Cron.nextSlot("0 2 * * *", t("2026-11-30T01:59:59Z"))).isEqualTo(t("2026-11-30T02:00:00Z"));
            assertThat(Cron.nextSlot("* * * * *", t("2026-11-30T09:15:00Z"))).isEqualTo(t("2026-11-30T09:16:00Z"));
            assertThat(Cron.nextSlot("* * * * *", t("2026-11-30T09:15:42Z"))).isEqualTo(t("2026-11-30T09:16:00Z"));
        }

        @Test
        void stepsListsAndRanges() {
            Instant now = t("2026-11-30T09:14:00Z");
            assertThat(Cron.lastSlot("*/15 * * * *", now)).isEqualTo(t("2026-11-30T09:00:00Z"));
            assertThat(Cron.nextSlot("*/15 * * * *", now)).isEqualTo(t("2026-11-30T09:15:00Z"));
            assertThat(Cron.nextSlot("1-5/2 * * * *", t("2026-11-30T09:03:00Z"))).isEqualTo(t("2026-11-30T09:05:00Z"));
            assertThat(Cron.nextSlot("1-5/2 * * * *", t("2026-11-30T09:05:00Z"))).isEqualTo(t("2026-11-30T10:01:00Z"));
            assertThat(Cron.nextSlot("5/15 * * * *", t("2026-11-30T09:36:00Z"))).isEqualTo(t("2026-11-30T09:50:00Z"));
            assertThat(Cron.nextSlot("0 8,12-13 * * *", t("2026-11-30T08:00:00Z"))).isEqualTo(t("2026-11-30T12:00:00Z"));
            assertThat(Cron.nextSlot("0 8,12-13 * * *", t("2026-11-30T13:00:00Z"))).isEqualTo(t("2026-12-01T08:00:00Z"));
        }

        @Test
        void monthEnds() {
            // 2026-11 has 30 days, so the 31st falls on October and December.
            assertThat(Cron.lastSlot("0 0 31 * *", t("2026-11-30T09:15:00Z"))).isEqualTo(t("2026-10-31T00:00:00Z"));
            assertThat(Cron.nextSlot("0 0 31 * *", t("2026-11-30T09:15:00Z"))).isEqualTo(t("2026-12-31T00:00:00Z"));
            assertThat(Cron.nextSlot("0 0 30 * *", t("2027-01-30T00:00:00Z"))).isEqualTo(t("2027-03-30T00:00:00Z"));
            assertThat(Cron.nextSlot("59 23 * * *", t("2026-12-31T23:59:00Z"))).isEqualTo(t("2027-01-01T23:59:00Z"));
            assertThat(Cron.lastSlot("0 0 1 * *", t("2027-01-01T00:00:00Z"))).isEqualTo(t("2027-01-01T00:00:00Z"));
            assertThat(Cron.lastSlot("0 0 1 * *", t("2026-12-31T23:59:59Z"))).isEqualTo(t("2026-12-01T00:00:00Z"));
        }

        @Test
        void leapDaySchedule() {
            String leapDay = "0 0 29 2 *";
            assertThat(Cron.lastSlot(leapDay, t("2026-11-30T09:15:00Z"))).isEqualTo(t("2024-02-29T00:00:00Z"));
            assertThat(Cron.nextSlot(leapDay, t("2026-11-30T09:15:00Z"))).isEqualTo(t("2028-02-29T00:00:00Z"));
            assertThat(Cron.lastSlot(leapDay, t("2024-02-29T00:00:00Z"))).isEqualTo(t("2024-02-29T00:00:00Z"));
            // 2100 is not a leap year: eight years between two leap days.
            assertThat(Cron.nextSlot(leapDay, t("2096-03-01T00:00:00Z"))).isEqualTo(t("2104-02-29T00:00:00Z"));
            assertThat(Cron.lastSlot(leapDay, t("2104-02-28T00:00:00Z"))).isEqualTo(t("2096-02-29T00:00:00Z"));
        }

        @Test
        void dayOfMonthOrDayOfWeekWhenBothAreRestricted() {
            // "30 4 1,15 * 5": 04:30 on the 1st and the 15th, and on every Friday.
            String schedule = "30 4 1,15 * 5";
            List<Instant> slots = slotsAfter(schedule, t("2026-11-30T09:15:00Z"), 5);
            assertThat(slots).containsExactly(
                    t("2026-12-01T04:30:00Z"),  // Tuesday the 1st
                    t("2026-12-04T04:30:00Z"),  // Friday
                    t("2026-12-11T04:30:00Z"),  // Friday
                    t("2026-12-15T04:30:00Z"),  // Tuesday the 15th
                    t("2026-12-18T04:30:00Z")); // Friday
        }

        @Test
        void dayOfMonthAndDayOfWeekWhenOneIsUnrestricted() {
            // Day-of-month is *, so only Fridays.
            assertThat(slotsAfter("0 0 * * 5", t("2026-11-30T00:00:00Z"), 2))
                    .containsExactly(t("2026-12-04T00:00:00Z"), t("2026-12-11T00:00:00Z"));
            // Day-of-week is *, so only the 1st.
            assertThat(slotsAfter("0 0 1 * *", t("2026-11-30T00:00:00Z"), 2))
                    .containsExactly(t("2026-12-01T00:00:00Z"), t("2027-01-01T00:00:00Z"));
            // */1 counts as *: only Wednesdays.
            assertThat(slotsAfter("0 0 */1 * 3", t("2026-11-30T00:00:00Z"), 2))
                    .containsExactly(t("2026-12-02T00:00:00Z"), t("2026-12-09T00:00:00Z"));
            // */2 is a restriction: odd days, or Wednesdays.
            assertThat(slotsAfter("0 0 */2 * 3", t("2026-11-30T00:00:00Z"), 3))
                    .containsExactly(t("2026-12-01T00:00:00Z"), t("2026-12-02T00:00:00Z"), t("2026-12-03T00:00:00Z"));
        }

        @Test
        void sundayIsZeroSevenOrSun() {
            Instant monday = t("2026-11-30T09:15:00Z");
            Instant sunday = t("2026-11-29T00:00:00Z");
            for (String schedule : List.of("0 0 * * 0", "0 0 * * 7", "0 0 * * SUN", "0 0 * * sun", "0 0 * * 7-7")) {
                assertThat(Cron.lastSlot(schedule, monday)).as(schedule).isEqualTo(sunday);
                assertThat(Cron.nextSlot(schedule, monday)).as(schedule).isEqualTo(t("2026-12-06T00:00:00Z"));
            }
            // Friday to Sunday, written with 7.
            assertThat(slotsAfter("0 0 * * 5-7", t("2026-12-01T00:00:00Z"), 4)).containsExactly(
                    t("2026-12-04T00:00:00Z"), t("2026-12-05T00:00:00Z"), t("2026-12-06T00:00:00Z"),
                    t("2026-12-11T00:00:00Z"));
        }

        @Test
        void namesForMonthsAndDays() {
            assertThat(Cron.lastSlot("0 0 * JAN-MAR MON-FRI", t("2026-11-30T09:15:00Z")))
                    .isEqualTo(t("2026-03-31T00:00:00Z"));
            assertThat(Cron.nextSlot("0 0 1 jan,Jul *", t("2026-11-30T09:15:00Z")))
                    .isEqualTo(t("2027-01-01T00:00:00Z"));
            // SUN is 0, so SUN-SAT is every day.
            assertThat(Cron.lastSlot("0 0 * * SUN-SAT", t("2026-11-30T09:15:00Z")))
                    .isEqualTo(t("2026-11-30T00:00:00Z"));
        }

        @Test
        void aStartWithAStepRunsToTheEndOfTheWeekWithoutWrappingToSunday() {
            // 1/2 in day-of-week is Monday, Wednesday, Friday (as for Kubernetes CronJobs), not Sunday.
            assertThat(slotsAfter("0 0 * * 1/2", t("2026-12-04T12:00:00Z"), 2))
                    .containsExactly(t("2026-12-07T00:00:00Z"), t("2026-12-09T00:00:00Z"));
        }

        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
            "@hourly   | 0 * * * *",
            "@daily    | 0 0 * * *",
            "@midnight | 0 0 * * *",
            "@weekly   | 0 0 * * 0",
            "@monthly  | 0 0 1 * *",
            "@yearly   | 0 0 1 1 *",
            "@annually | 0 0 1 1 *",
            "@DAILY    | 0 0 * * *",
        })
        void macrosAreTheirUsualSchedules(String macro, String schedule) {
            for (Instant now : List.of(t("2026-11-30T09:15:00Z"), t("2024-02-29T23:59:00Z"), t("2027-01-01T00:00:00Z"))) {
                assertThat(Cron.lastSlot(macro, now)).isEqualTo(Cron.lastSlot(schedule, now));
                assertThat(Cron.nextSlot(macro, now)).isEqualTo(Cron.nextSlot(schedule, now));
            }
        }

        @Test
        void surroundingAndRepeatedWhitespaceIsIgnored() {
            assertThat(Cron.lastSlot("  0\t2  * *   * ", t("2026-11-30T09:15:00Z"))).isEqualTo(t("2026-11-30T02:00:00Z"));
        }

        @Test
        void aDayThatOnlySomeNamedMonthsHaveIsValid() {
            assertThat(Cron.nextSlot("0 0 31 2,3 *", t("2026-11-30T00:00:00Z"))).isEqualTo(t("2027-03-31T00:00:00Z"));
            // February has no 30th, but the Mondays of February count.
            assertThat(Cron.nextSlot("0 0 30 2 MON", t("2026-11-30T00:00:00Z"))).isEqualTo(t("2027-02-01T00:00:00Z"));
        }
    }

    @Nested
    class Due {

        private final String daily = "0 2 * * *";
        private final Instant now = t("2026-11-30T09:15:00Z");

        @Test
        void dueWhenASlotLiesAfterSinceAndAtOrBeforeNow() {
            assertThat(Cron.isDue(daily, t("2026-11-29T02:00:05Z"), now)).isTrue();
            assertThat(Cron.isDue(daily, t("2026-11-30T01:59:59Z"), now)).isTrue();
        }

        @Test
        void notDueWhenTheLastSlotWasAlreadyRun() {
            assertThat(Cron.isDue(daily, t("2026-11-30T02:00:00Z"), now)).isFalse();
            assertThat(Cron.isDue(daily, t("2026-11-30T02:00:07Z"), now)).isFalse();
        }

        @Test
        void dueAtTheSlotItself() {
            assertThat(Cron.isDue(daily, t("2026-11-29T02:00:00Z"), t("2026-11-30T02:00:00Z"))).isTrue();
            assertThat(Cron.isDue(daily, t("2026-11-29T02:00:00Z"), t("2026-11-30T01:59:59Z"))).isFalse();
        }

        @Test
        void manyMissedSlotsMakeItDue() {
            assertThat(Cron.isDue(daily, t("2025-01-01T00:00:00Z"), now)).isTrue();
        }

        @Test
        void sinceInTheFutureIsNotDue() {
            assertThat(Cron.isDue(daily, t("2026-12-24T00:00:00Z"), now)).isFalse();
        }

        @Test
        void neverRunIsDue() {
            assertThat(Cron.isDue(daily, null, now)).isTrue();
            assertThat(Cron.isDue("0 0 29 2 *", null, now)).isTrue();
        }

        @Test
        void aNewThingWaitsForItsFirstSlotWhenSinceIsItsCreationTime() {
            Instant created = t("2026-11-30T08:00:00Z");
            assertThat(Cron.isDue(daily, created, now)).isFalse();
            assertThat(Cron.isDue(daily, created, t("2026-12-01T02:00:00Z"))).isTrue();
        }

        @Test
        void anInvalidScheduleIsAnErrorEvenWhenNeverRun() {
            assertThatIllegalArgumentException().isThrownBy(() -> Cron.isDue("0 0 * *", null, now))
                    .withMessageStartingWith("'0 0 * *' is not a cron schedule: ");
        }
    }

    @Nested
    class SlotIds {

        @Test
        void namesTheLastSlotInUtc() {
            assertThat(Cron.slotId("0 2 * * *", t("2026-11-30T09:15:00Z"))).isEqualTo("20261130-0200");
            assertThat(Cron.slotId("*/15 * * * *", t("2026-01-05T23:59:59Z"))).isEqualTo("20260105-2345");
        }

        @Test
        void isTheSameForEveryMomentOfASlotAndChangesWithTheNextSlot() {
            String schedule = "0 */6 * * *";
            assertThat(Cron.slotId(schedule, t("2026-11-30T06:00:00Z")))
                    .isEqualTo(Cron.slotId(schedule, t("2026-11-30T11:59:59Z")))
                    .isEqualTo("20261130-0600");
            assertThat(Cron.slotId(schedule, t("2026-11-30T12:00:00Z"))).isEqualTo("20261130-1200");
        }

        @Test
        void isAValidDnsLabelPart() {
            Random random = new Random(11);
            for (int i = 0; i < 200; i++) {
                Instant now = Instant.ofEpochSecond(random.nextInt(Integer.MAX_VALUE));
                assertThat(Cron.slotId("*/7 * * * *", now)).matches("[0-9]{8}-[0-9]{4}");
            }
        }
    }

    @Nested
    class Errors {

        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
            "61 * * * *        | minute '61' is out of range; use 0-59",
            "1,61 * * * *      | minute '1,61' has 61, which is out of range; use 0-59",
            "0 24 * * *        | hour '24' is out of range; use 0-23",
            "0 0 0 * *         | day-of-month '0' is out of range; use 1-31",
            "0 0 32 * *        | day-of-month '32' is out of range; use 1-31",
            "0 0 * 13 *        | month '13' is out of range; use 1-12 or JAN-DEC",
            "0 0 * * 8         | day-of-week '8' is out of range; use 0-7 or SUN-SAT (0 and 7 are both Sunday)",
            "* * *             | it has 3 fields but needs 5: minute hour day-of-month month day-of-week",
            "abc               | it has 1 field but needs 5",
            "0 0 * * * *       | it has 6 fields but needs 5",
            "*/0 * * * *       | minute '*/0' has the step '0'; a step is a whole number from 1 to 59",
            "*/60 * * * *      | a step is a whole number from 1 to 59",
            "*/x * * * *       | minute '*/x' has the step 'x'",
            "5-1 * * * *       | minute '5-1' runs backwards; write the smaller value first, e.g. 1-5",
            "0 0 * * SAT-SUN   | day-of-week 'SAT-SUN' runs backwards; write the smaller value first, e.g. 1-5, or 6-7",
            "0 0 * * MONDAY    | day-of-week 'MONDAY' is not a value; use 0-7 or SUN-SAT",
            "0 0 * FOO *       | month 'FOO' is not a value; use 1-12 or JAN-DEC",
            "0 0 * * 1,FOO     | day-of-week '1,FOO' has 'FOO', which is not a value",
            "0 0 1- * *        | day-of-month '1-' has a range with a missing end",
            "0 0 1,,2 * *      | day-of-month '1,,2' has an empty list entry",
            "*,5 * * * *       | minute '*,5' mixes * with other values",
            "-1 * * * *        | minute '-1' has a range with a missing end",
            "0 0 L * *         | day-of-month 'L' is not a value",
            "0 0 ? * *         | day-of-month '?' is not a value",
            "0 0 * * 1#2       | day-of-week '1#2' is not a value",
            "0 0 30 2 *        | it never runs, because no month in '2' has a day '30'",
            "0 0 31 4,6,9,11 * | it never runs",
            "@every 5m         | it is not a known macro; use @hourly, @daily, @midnight, @weekly",
            "@reboot           | it is not a known macro",
        })
        void quotesTheScheduleAndSaysWhatToFix(String schedule, String fix) {
            assertThatIllegalArgumentException().isThrownBy(() -> Cron.validate(schedule))
                    .withMessageStartingWith("'" + schedule + "' is not a cron schedule: ")
                    .withMessageContaining(fix);
            assertThatIllegalArgumentException().isThrownBy(() -> Cron.lastSlot(schedule, t("2026-11-30T00:00:00Z")));
            assertThatIllegalArgumentException().isThrownBy(() -> Cron.nextSlot(schedule, t("2026-11-30T00:00:00Z")));
            assertThatIllegalArgumentException().isThrownBy(() -> Cron.slotId(schedule, t("2026-11-30T00:00:00Z")));
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "   "})
        void emptySchedules(String schedule) {
            assertThatIllegalArgumentException().isThrownBy(() -> Cron.validate(schedule))
                    .withMessage("'" + schedule + "' is not a cron schedule: it has 0 fields but needs 5: minute hour"
                            + " day-of-month month day-of-week, e.g. 0 2 * * * for 02:00 UTC every day");
        }

        @Test
        void nullSchedule() {
            assertThatIllegalArgumentException().isThrownBy(() -> Cron.validate(null))
                    .withMessageStartingWith("null is not a cron schedule: give five fields, minute hour");
        }

        @Test
        void nullTimes() {
            assertThatIllegalArgumentException().isThrownBy(() -> Cron.lastSlot("0 2 * * *", null))
                    .withMessageStartingWith("the time 'now' is null: pass an Instant");
            assertThatIllegalArgumentException().isThrownBy(() -> Cron.nextSlot("0 2 * * *", null))
                    .withMessageStartingWith("the time 'after' is null: pass an Instant");
            assertThatIllegalArgumentException().isThrownBy(() -> Cron.isDue("0 2 * * *", t("2026-11-30T00:00:00Z"), null));
            assertThatIllegalArgumentException().isThrownBy(() -> Cron.slotId("0 2 * * *", null));
        }

        @Test
        void timesOutsideTheSupportedYears() {
            assertThatIllegalArgumentException().isThrownBy(() -> Cron.lastSlot("0 2 * * *", Instant.MAX))
                    .withMessage("the time '" + Instant.MAX + "' is outside the years 1 to 9999 that schedules are"
                            + " evaluated in: pass a time within them");
            assertThatIllegalArgumentException().isThrownBy(() -> Cron.nextSlot("0 2 * * *", Instant.MIN))
                    .withMessageStartingWith("the time '" + Instant.MIN + "' is outside the years 1 to 9999");
        }

        @Test
        void validSchedulesPassValidation() {
            for (String schedule : List.of("* * * * *", "0 2 * * *", "*/15 9-17 * * MON-FRI", "0 0 29 2 *",
                    "0 0 1,15 * 5", "0 0 * * 0-7", "@daily", "59 23 31 12 7", "0 0 * * */2")) {
                assertThatNoException().as(schedule).isThrownBy(() -> Cron.validate(schedule));
            }
        }
    }

    /**
     * Compares lastSlot and nextSlot with a brute-force search, day by day, for random schedules.
     * The generator writes each field's text and the set of values it means side by side, so the
     * reference never parses cron text.
     */
    @Nested
    class AgainstBruteForce {

        private static final int[] MIN = {0, 0, 1, 1, 0};
        private static final int[] MAX = {59, 23, 31, 12, 7};
        private static final String[] DAYS = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};
        private static final String[] MONTHS = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
            "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};

        private final Random random = new Random(20261130);

        @Test
        void agreesOnRandomSchedules() {
            int compared = 0;
            for (int i = 0; i < 400; i++) {
                String[] text = new String[5];
                BitSet[] sets = new BitSet[5];
                boolean[] star = new boolean[5];
                for (int f = 0; f < 5; f++) {
                    sets[f] = new BitSet();
                    star[f] = generate(f, sets[f], text, random);
                }
                if (!fires(sets, star)) {
                    continue;
                }
                String schedule = String.join(" ", text);
                LocalDateTime now = LocalDateTime.of(2001 + random.nextInt(120), 1 + random.nextInt(12), 1,
                        random.nextInt(24), random.nextInt(60), random.nextInt(60)).plusDays(random.nextInt(31));
                if (random.nextInt(3) == 0) {
                    now = referenceLast(sets, star, now).withSecond(random.nextInt(60)); // exactly on a slot
                }
                Instant instant = now.toInstant(ZoneOffset.UTC);
                assertThat(Cron.lastSlot(schedule, instant)).as("lastSlot(%s, %s)", schedule, instant)
                        .isEqualTo(referenceLast(sets, star, now).toInstant(ZoneOffset.UTC));
                assertThat(Cron.nextSlot(schedule, instant)).as("nextSlot(%s, %s)", schedule, instant)
                        .isEqualTo(referenceNext(sets, star, now).toInstant(ZoneOffset.UTC));
                compared++;
            }
            assertThat(compared).isGreaterThan(300);
        }

        /** Fills {@code set} for field {@code f}, writes its text; returns whether it is unrestricted. */
        private boolean generate(int f, BitSet set, String[] text, Random r) {
            int min = MIN[f];
            int max = MAX[f];
            int top = f == 4 ? 6 : max; // where * and n/step end
            switch (r.nextInt(7)) {
                case 0 -> {
                    text[f] = r.nextBoolean() ? "*" : "*/1";
                    add(set, f, min, top, 1);
                    return true;
                }
                case 1 -> {
                    int v = min + r.nextInt(max - min + 1);
                    text[f] = name(f, v, r);
                    add(set, f, v, v, 1);
                }
                case 2 -> {
                    int a = min + r.nextInt(max - min + 1);
                    int b = a + r.nextInt(max - a + 1);
                    text[f] = name(f, a, r) + "-" + name(f, b, r);
                    add(set, f, a, b, 1);
                }
                case 3 -> {
                    int step = 2 + r.nextInt(Math.max(1, (top - min) / 2));
                    text[f] = "*/" + step;
                    add(set, f, min, top, step);
                }
                case 4 -> {
                    int a = min + r.nextInt(max - min + 1);
                    int b = a + r.nextInt(max - a + 1);
                    int step = 1 + r.nextInt(4);
                    text[f] = a + "-" + b + "/" + step;
                    add(set, f, a, b, step);
                }
                case 5 -> {
                    int a = min + r.nextInt(top - min + 1);
                    int step = 1 + r.nextInt(5);
                    text[f] = a + "/" + step;
                    add(set, f, a, top, step);
                }
                default -> {
                    int a = min + r.nextInt(max - min + 1);
                    int b = min + r.nextInt(max - min + 1);
                    text[f] = name(f, a, r) + "," + name(f, b, r);
                    add(set, f, a, a, 1);
                    add(set, f, b, b, 1);
                }
            }
            return false;
        }

        private String name(int f, int v, Random r) {
            if (f == 3 && r.nextBoolean()) return MONTHS[v - 1];
            if (f == 4 && v < 7 && r.nextBoolean()) return DAYS[v].toLowerCase();
            return Integer.toString(v);
        }

        private void add(BitSet set, int f, int from, int to, int step) {
            for (int v = from; v <= to; v += step) {
                set.set(f == 4 && v == 7 ? 0 : v);
            }
        }

        private boolean fires(BitSet[] sets, boolean[] star) {
            LocalDate day = LocalDate.of(2000, 1, 1);
            for (int i = 0; i < 366 * 8 + 2; i++, day = day.plusDays(1)) {
                if (dayMatches(sets, star, day)) return true;
            }
            return false;
        }

        private boolean dayMatches(BitSet[] sets, boolean[] star, LocalDate day) {
            if (!sets[3].get(day.getMonthValue())) return false;
            boolean dom = sets[2].get(day.getDayOfMonth());
            boolean dow = sets[4].get(day.getDayOfWeek().getValue() % 7);
            return !star[2] && !star[4] ? dom || dow : dom && dow;
        }

        private LocalDateTime referenceLast(BitSet[] sets, boolean[] star, LocalDateTime now) {
            for (LocalDate day = now.toLocalDate(); ; day = day.minusDays(1)) {
                if (!dayMatches(sets, star, day)) continue;
                for (int h = 23; h >= 0; h--) {
                    for (int m = 59; m >= 0; m--) {
                        LocalDateTime time = day.atTime(h, m);
                        if (sets[1].get(h) && sets[0].get(m) && !time.isAfter(now)) return time;
                    }
                }
            }
        }

        private LocalDateTime referenceNext(BitSet[] sets, boolean[] star, LocalDateTime now) {
            for (LocalDate day = now.toLocalDate(); ; day = day.plusDays(1)) {
                if (!dayMatches(sets, star, day)) continue;
                for (int h = 0; h < 24; h++) {
                    for (int m = 0; m < 60; m++) {
                        LocalDateTime time = day.atTime(h, m);
                        if (sets[1].get(h) && sets[0].get(m) && time.isAfter(now)) return time;
                    }
                }
            }
        }
    }

    private static List<Instant> slotsAfter(String schedule, Instant start, int count) {
        List<Instant> slots = new ArrayList<>();
        Instant after = start;
        for (int i = 0; i < count; i++) {
            after = Cron.nextSlot(schedule, after);
            slots.add(after);
        }
        return slots;
    }

    @Test
    void problemIsTheValidationMessageOrNull() {
        assertThat(Cron.problem("0 2 * * *")).isNull();
        assertThat(Cron.problem("0 2 * *")).contains("'0 2 * *'").contains("needs 5");
        assertThat(Cron.problem(null)).startsWith("null is not a cron schedule");
    }
}
