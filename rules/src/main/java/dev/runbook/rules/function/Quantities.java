package dev.runbook.rules.function;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes resource quantities, as written in {@code resources.requests}, {@code limits} and
 * volume sizes: {@code 512Mi}, {@code 1.5Gi}, {@code 500m}, {@code 2}, {@code 1e3}.
 *
 * <p>A quantity is a non-negative number (whole or decimal) with an optional suffix, which is
 * case-sensitive:
 * <ul>
 *   <li>binary: {@code Ki} (1024), {@code Mi}, {@code Gi}, {@code Ti}, {@code Pi}, {@code Ei};</li>
 *   <li>decimal: {@code n} (10^-9), {@code u} (10^-6), {@code m} (10^-3), {@code k} (1000),
 *       {@code M}, {@code G}, {@code T}, {@code P}, {@code E};</li>
 *   <li>an exponent: {@code e3} or {@code E3} (times 10^3), from {@code e-30} to {@code e30}.</li>
 * </ul>
 * So {@code 1M} is a million and {@code 1m} a thousandth. Negative quantities are refused, since
 * no size or amount of CPU is negative. Leading and trailing spaces are ignored.
 */
public final class Quantities {

    private static final String EXAMPLES = "e.g. 512Mi, 1.5Gi, 500m, 2, 1e3";
    private static final Pattern QUANTITY = Pattern.compile(
            "\\+?(\\d+(?:\\.\\d*)?|\\.\\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?\\d+|[numkMGTPE])?");
    private static final String BINARY = "KMGTPE";
    private static final String DECIMAL = "num kMGTPE";
    private static final int MAX_EXPONENT = 30;

    private Quantities() {
    }

    /**
     * The exact value of a quantity: {@code 1Ki} is 1024, {@code 1.5Gi} is 1610612736, {@code 500m}
     * is 0.5, {@code 12E6} is 12000000. The result has no trailing zeros after the decimal point.
     *
     * @throws IllegalArgumentException when it is not a quantity or is negative
     */
    public static BigDecimal parse(String quantity) {
        return PARSED.parse(quantity);
    }

    private static final ParseMemo<BigDecimal> PARSED = new ParseMemo<>(Quantities::parseText);

    private static BigDecimal parseText(String quantity) {
        if (quantity == null) {
            throw new IllegalArgumentException("null is not a quantity: give a number with an optional suffix, "
                    + EXAMPLES);
        }
        String s = quantity.strip();
        if (s.startsWith("-")) {
            throw invalid(quantity, "a quantity cannot be negative; write it without the minus sign");
        }
        Matcher m = QUANTITY.matcher(s);
        if (!m.matches()) {
            throw invalid(quantity, "use a number with an optional suffix, " + EXAMPLES
                    + " (suffixes are case-sensitive: Ki Mi Gi Ti Pi Ei, n u m k M G T P E)");
        }
        BigDecimal number = new BigDecimal(m.group(1).endsWith(".") ? m.group(1) + "0" : m.group(1));
        String suffix = m.group(2);
        BigDecimal value;
        if (suffix == null) {
            value = number;
        } else if (suffix.length() == 2 && suffix.charAt(1) == 'i') {
            value = number.multiply(BigDecimal.valueOf(2).pow(10 * (BINARY.indexOf(suffix.charAt(0)) + 1)));
        } else if (suffix.length() > 1) {
            value = number.scaleByPowerOfTen(exponent(quantity, suffix.substring(1)));
        } else {
            value = number.scaleByPowerOfTen(3 * (DECIMAL.indexOf(suffix.charAt(0)) - 3));
        }
        value = value.stripTrailingZeros();
        return value.scale() < 0 ? value.setScale(0) : value;
    }

    /**
     * What keeps {@link #bytes} from reading the quantity, or null when it reads it: for a rule that
     * reports a bad size instead of failing on it.
     */
    public static String bytesProblem(String quantity) {
        try {
            bytes(quantity);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /**
     * A memory or storage quantity in bytes: {@code 1Gi} is 1073741824, {@code 1G} is 1000000000. A
     * fractional number of bytes is rounded up to the next whole byte, as Kubernetes does
     * ({@code 0.5Ki} is 512, {@code 1.5} is 2). The suffixes {@code m}, {@code u} and {@code n} are
     * refused: {@code 500m} would be half a byte, and is almost always a mistake for {@code 500M}
     * or {@code 500Mi}.
     *
     * @throws IllegalArgumentException when it is not a quantity, uses {@code m}, {@code u} or
     *         {@code n}, or does not fit in a {@code long}
     */
    public static long bytes(String quantity) {
        BigDecimal value = parse(quantity);
        String s = quantity.strip();
        char last = s.charAt(s.length() - 1);
        if (last == 'm' || last == 'u' || last == 'n') {
            String number = s.substring(0, s.length() - 1);
            throw invalid(quantity, "'" + last + "' means " + (last == 'm' ? "thousandths" : last == 'u'
                    ? "millionths" : "billionths") + ", which is not a byte count; write " + number + "M"
                    + " (megabytes) or " + number + "Mi (mebibytes)");
        }
        return whole(quantity, value, "a byte count must be below 8Ei");
    }

    /**
     * A CPU quantity in millicores, rounded up to a whole millicore as Kubernetes does: {@code 500m}
     * is 500, {@code 2} is 2000, {@code 0.1} is 100, {@code 1.5} is 1500.
     *
     * @throws IllegalArgumentException when it is not a quantity or does not fit in a {@code long}
     */
    public static long millis(String quantity) {
        return whole(quantity, parse(quantity).movePointRight(3), "a CPU quantity must be below 9P");
    }

    /**
     * Compares two quantities by value, whatever their suffixes: {@code 1Gi} is more than {@code 1G},
     * and {@code 1000m} equals {@code 1}.
     *
     * @return -1 when {@code a} is less than {@code b}, 0 when equal, 1 when more
     * @throws IllegalArgumentException when either is not a quantity
     */
    public static int compare(String a, String b) {
        return Integer.signum(parse(a).compareTo(parse(b)));
    }

    /**
     * Whether quantity {@code a} is at least {@code b}, as in "the volume holds at least 10Gi".
     *
     * @throws IllegalArgumentException when either is not a quantity
     */
    public static boolean isAtLeast(String a, String b) {
        return compare(a, b) >= 0;
    }

    private static int exponent(String quantity, String digits) {
        String unsigned = digits.startsWith("+") || digits.startsWith("-") ? digits.substring(1) : digits;
        if (unsigned.length() > 2 || Integer.parseInt(unsigned) > MAX_EXPONENT) {
            throw invalid(quantity, "use an exponent from e-" + MAX_EXPONENT + " to e" + MAX_EXPONENT
                    + ", or a suffix, e.g. 1e9 or 1G");
        }
        return Integer.parseInt(digits);
    }

    private static long whole(String quantity, BigDecimal value, String limit) {
        try {
            return value.setScale(0, RoundingMode.CEILING).longValueExact();
        } catch (ArithmeticException e) {
            throw invalid(quantity, "it is too large: " + limit);
        }
    }

    private static IllegalArgumentException invalid(String quantity, String fix) {
        return new IllegalArgumentException("'" + quantity + "' is not a quantity: " + fix);
    }
}
