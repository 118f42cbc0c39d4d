package dev.runbook.postgres.contract;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class LsnTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "50331648          | 50331648",
        "0                 | 0",
        "0/3000000         | 50331648",
        "0/10000030        | 268435504",
        "1/0               | 4294967296",
        "16/B374D848       | 97500059720",
        "7fffffff/ffffffff | 9223372036854775807",
        "' 0/3000000 '     | 50331648",
    })
    void readsDecimalAndPostgresForms(String text, long position) {
        assertThat(Lsn.parse(text)).isEqualTo(position);
        assertThat(Lsn.isValid(text)).isTrue();
        assertThat(Lsn.problem(text)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "zero", "0/", "/1", "0/xyz", "1/2/3", "-5", "0x10", "1.5", "123456789/0", "0/123456789",
            "99999999999999999999", "9999999999999999999", "80000000/0", "\uff10/1", "1/\u0661"})
    void refusesAnythingElseSayingWhichFormsItTakes(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> Lsn.parse(text))
                .withMessage("'" + text + "' is not a WAL position: use " + Lsn.FORMS);
        assertThat(Lsn.isValid(text)).isFalse();
        assertThat(Lsn.problem(text)).contains("is not a WAL position");
    }

    @Test
    void nullIsNotAPosition() {
        assertThat(Lsn.isValid(null)).isFalse();
        assertThatIllegalArgumentException().isThrownBy(() -> Lsn.parse(null)).withMessageStartingWith("'null' is not a WAL position");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "zero", "0/", "-5", "80000000/0", "\u0661/0"})
    void readSaysUnknownWhereParseRefuses(String text) {
        assertThat(Lsn.read(text)).isEmpty();
    }

    @Test
    void readGivesWhatParseGives() {
        assertThat(Lsn.read(null)).isEmpty();
        assertThat(Lsn.read("0/3000000")).hasValue(50331648);
        assertThat(Lsn.read("50331648")).hasValue(50331648);
    }

    @Test
    void formatWritesPostgresFormAndReadsBack() {
        assertThat(Lsn.format(50331648)).isEqualTo("0/3000000");
        assertThat(Lsn.format(97500059720L)).isEqualTo("16/B374D848");
        assertThat(Lsn.format(0)).isEqualTo("0/0");
        assertThat(Lsn.parse(Lsn.format(123456789012L))).isEqualTo(123456789012L);
        assertThatIllegalArgumentException().isThrownBy(() -> Lsn.format(-2)).withMessageContaining("never negative");
    }
}
