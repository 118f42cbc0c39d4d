package dev.runbook.rules.function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class NamesTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "Before upgrade 17   | before-upgrade-17",
        "'  --release 2.0--' | release-2-0",
        "ABC                 | abc",
        "a__b..c             | a-b-c",
        "'!!!'               | ''",
    })
    void slugKeepsLettersAndDigitsJoinedByOneHyphen(String text, String slug) {
        assertThat(Names.slug(text)).isEqualTo(slug);
    }

    @Test
    void slugRefusesNull() {
        assertThatIllegalArgumentException().isThrownBy(() -> Names.slug(null)).withMessageContaining("null has no name");
    }

    @Test
    void controlCharactersAreFound() {
        assertThat(Names.hasControlCharacter("a\tb")).isTrue();
        assertThat(Names.hasControlCharacter("line\n")).isTrue();
        assertThat(Names.hasControlCharacter("plain text")).isFalse();
        assertThat(Names.hasControlCharacter(null)).isFalse();
    }

    @Test
    void ordinalIsTheNumberAfterTheLastHyphen() {
        assertThat(Names.ordinal("pg-2")).isEqualTo(2);
        assertThat(Names.ordinal("my-db-10")).isEqualTo(10);
        assertThat(Names.ordinal("pg-x")).isEqualTo(-1);
        assertThat(Names.ordinal("pg")).isEqualTo(-1);
        assertThat(Names.ordinal("pg-")).isEqualTo(-1);
        assertThat(Names.ordinal(null)).isEqualTo(-1);
        assertThat(Names.ordinal("7")).isEqualTo(7);
        assertThat(Names.ordinal("pg-000000007")).isEqualTo(7);
        assertThat(Names.ordinal("pg-999999999")).isEqualTo(999_999_999);
        assertThat(Names.ordinal("pg-1234567890")).isEqualTo(-1);
        assertThat(Names.ordinal("pg-+2")).isEqualTo(-1);
        assertThat(Names.ordinal("pg-2a")).isEqualTo(-1);
        assertThat(Names.ordinal("pg-\u0663")).isEqualTo(-1);
    }

    @Test
    void ordinalAgreesWithTheDigitsPatternItReplaced() {
        String[] tails = {"", "0", "1", "42", "0042", "123456789", "1234567890", "-1", "+1", "1-", "x1", "1x", " 1", "1 ",
                "\u0663", "\uff11", "99999999999"};
        for (String head : new String[] {"", "pg", "pg-", "my-db-", "-", "a-b-"}) {
            for (String tail : tails) {
                String name = head + tail;
                String last = name.substring(name.lastIndexOf('-') + 1);
                int expected = last.matches("\\d{1,9}") ? Integer.parseInt(last) : -1;
                assertThat(Names.ordinal(name)).as(name).isEqualTo(expected);
            }
        }
    }
}
