package dev.runbook.rules.function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class QuantitiesTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "1Ki     | 1024",
        "1Mi     | 1048576",
        "1Gi     | 1073741824",
        "1Ti     | 1099511627776",
        "1Pi     | 1125899906842624",
        "1Ei     | 1152921504606846976",
        "1.5Gi   | 1610612736",
        "0.5Ki   | 512",
        "1k      | 1000",
        "1M      | 1000000",
        "1G      | 1000000000",
        "1T      | 1000000000000",
        "1P      | 1000000000000000",
        "1E      | 1000000000000000000",
        "500m    | 0.5",
        "1500m   | 1.5",
        "250u    | 0.00025",
        "2       | 2",
        "2.50    | 2.5",
        "0       | 0",
        "0.0     | 0",
        ".5      | 0.5",
        "5.      | 5",
        "+1      | 1",
        "1e3     | 1000",
        "12E6    | 12000000",
        "1e+3    | 1000",
        "1e-3    | 0.001",
        "1.5e3   | 1500",
        "' 1Gi ' | 1073741824",
    })
    void parsesToTheExactValue(String quantity, String expected) {
        BigDecimal value = Quantities.parse(quantity);
        assertThat(value.toString()).isEqualTo(expected);
    }

    @Test
    void nanoIsTheSmallestSuffix() {
        assertThat(Quantities.parse("1n")).isEqualByComparingTo("0.000000001");
    }

    @Test
    void bytesAreWholeAndRoundedUp() {
        assertThat(Quantities.bytes("1Gi")).isEqualTo(1_073_741_824L);
        assertThat(Quantities.bytes("1G")).isEqualTo(1_000_000_000L);
        assertThat(Quantities.bytes("512Mi")).isEqualTo(536_870_912L);
        assertThat(Quantities.bytes("0.5Ki")).isEqualTo(512);
        assertThat(Quantities.bytes("0.1Ki")).isEqualTo(103); // 102.4
        assertThat(Quantities.bytes("1.5")).isEqualTo(2);
        assertThat(Quantities.bytes("0")).isZero();
        assertThat(Quantities.bytes("7Ei")).isEqualTo(7L << 60);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "500m | 'm' means thousandths, which is not a byte count; write 500M (megabytes) or 500Mi (mebibytes)",
        "1.5m | write 1.5M (megabytes) or 1.5Mi (mebibytes)",
        "20u  | 'u' means millionths",
        "3n   | 'n' means billionths",
        "8Ei  | it is too large: a byte count must be below 8Ei",
        "1e20 | it is too large: a byte count must be below 8Ei",
    })
    void bytesRefusesFractionSuffixesAndOverflow(String quantity, String fix) {
        assertThatIllegalArgumentException().isThrownBy(() -> Quantities.bytes(quantity))
                .withMessageStartingWith("'" + quantity + "' is not a quantity: ")
                .withMessageContaining(fix);
    }

    @Test
    void millisAreMillicoresRoundedUp() {
        assertThat(Quantities.millis("500m")).isEqualTo(500);
        assertThat(Quantities.millis("2")).isEqualTo(2000);
        assertThat(Quantities.millis("0.1")).isEqualTo(100);
        assertThat(Quantities.millis("1.5")).isEqualTo(1500);
        assertThat(Quantities.millis("250u")).isEqualTo(1);
        assertThat(Quantities.millis("1k")).isEqualTo(1_000_000);
        assertThat(Quantities.millis("0")).isZero();
    }

    @Test
    void millisRefusesOverflow() {
        assertThatIllegalArgumentException().isThrownBy(() -> Quantities.millis("10P"))
                .withMessage("'10P' is not a quantity: it is too large: a CPU quantity must be below 9P");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "1Gi   | 1G     | 1",
        "1G    | 1Gi    | -1",
        "1000m | 1      | 0",
        "512Mi | 0.5Gi  | 0",
        "1k    | 1000   | 0",
        "1e3   | 1k     | 0",
        "1     | 2      | -1",
        "10Gi  | 9999Mi | 1",
        "100m  | 0.1    | 0",
    })
    void comparesByValue(String a, String b, int expected) {
        assertThat(Quantities.compare(a, b)).isEqualTo(expected);
        assertThat(Quantities.compare(b, a)).isEqualTo(-expected);
        assertThat(Quantities.isAtLeast(a, b)).isEqualTo(expected >= 0);
    }

    @Test
    void theDocumentedGenericMessage() {
        assertThatIllegalArgumentException().isThrownBy(() -> Quantities.parse("1Gb"))
                .withMessage("'1Gb' is not a quantity: use a number with an optional suffix, e.g. 512Mi, 1.5Gi,"
                        + " 500m, 2, 1e3 (suffixes are case-sensitive: Ki Mi Gi Ti Pi Ei, n u m k M G T P E)");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "1Gb     | use a number with an optional suffix",
        "1gi     | suffixes are case-sensitive",
        "1K      | suffixes are case-sensitive",
        "abc     | use a number with an optional suffix",
        "''      | use a number with an optional suffix",
        "Gi      | use a number with an optional suffix",
        "1 Gi    | use a number with an optional suffix",
        "1.2.3   | use a number with an optional suffix",
        "1e      | use a number with an optional suffix",
        "1,5Gi   | use a number with an optional suffix",
        "-1Gi    | a quantity cannot be negative; write it without the minus sign",
        "1e99    | use an exponent from e-30 to e30, or a suffix, e.g. 1e9 or 1G",
        "1e-31   | use an exponent from e-30 to e30",
        "1e123456789012 | use an exponent from e-30 to e30",
    })
    void refusesWhatIsNotAQuantity(String quantity, String fix) {
        for (var call : List.<Runnable>of(
                () -> Quantities.parse(quantity), () -> Quantities.bytes(quantity), () -> Quantities.millis(quantity),
                () -> Quantities.compare(quantity, "1"), () -> Quantities.isAtLeast("1", quantity))) {
            assertThatIllegalArgumentException().isThrownBy(call::run)
                    .withMessageStartingWith("'" + quantity + "' is not a quantity: ")
                    .withMessageContaining(fix);
        }
    }

    @Test
    void refusesNull() {
        assertThatIllegalArgumentException().isThrownBy(() -> Quantities.parse(null))
                .withMessage("null is not a quantity: give a number with an optional suffix, e.g. 512Mi, 1.5Gi, 500m,"
                        + " 2, 1e3");
        assertThatIllegalArgumentException().isThrownBy(() -> Quantities.bytes(null));
        assertThatIllegalArgumentException().isThrownBy(() -> Quantities.millis(null));
    }

    @Test
    void bytesProblemIsTheMessageOrNull() {
        assertThat(Quantities.bytesProblem("16Mi")).isNull();
        assertThat(Quantities.bytesProblem("16MB")).startsWith("'16MB' is not a quantity");
        assertThat(Quantities.bytesProblem("500m")).contains("not a byte count");
    }
}
