package dev.runbook.rules.function;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Version numbers such as {@code 15.10}, {@code v1.2.3} or {@code 2.0.0-rc.1}, and the version tag
 * of a container image.
 *
 * <p>A version is one or more whole numbers separated by dots, with an optional leading {@code v}
 * and an optional pre-release after a {@code -}. Numbers compare as numbers, so {@code 15.10} is
 * newer than {@code 15.9}; missing numbers count as 0, so {@code 16} equals {@code 16.0}. A
 * pre-release sorts before its release ({@code 2.0.0-rc.1} is older than {@code 2.0.0}) and
 * pre-releases compare by Semantic Versioning rules. Build metadata after a {@code +} is ignored.
 * Leading and trailing spaces are ignored.
 *
 * <p>Note that image tags often carry a variant after a hyphen ({@code 16.2-alpine}); it is read as
 * a pre-release, so {@code 16.2-alpine} sorts before {@code 16.2}. Compare tags of the same variant.
 */
public final class Versions {

    private static final String EXAMPLES = "e.g. 15.10, v1.2.3, 2.0.0-rc.1";
    private static final Pattern VERSION = Pattern.compile(
            "[vV]?(\\d+(?:\\.\\d+)*)(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?(?:\\+[0-9A-Za-z.-]+)?");
    private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}");

    private Versions() {
    }

    /**
     * Compares two versions.
     *
     * @return -1 when {@code a} is older than {@code b}, 0 when they are the same version, 1 when
     *         {@code a} is newer
     * @throws IllegalArgumentException when either is not a version
     */
    public static int compare(String a, String b) {
        Version va = Version.parse(a);
        Version vb = Version.parse(b);
        int byNumbers = compareNumbers(va.numbers, vb.numbers);
        if (byNumbers != 0) {
            return byNumbers;
        }
        return comparePreReleases(va.preRelease, vb.preRelease);
    }

    /**
     * Whether {@code a} is a newer version than {@code b}.
     *
     * @throws IllegalArgumentException when either is not a version
     */
    public static boolean isNewer(String a, String b) {
        return compare(a, b) > 0;
    }

    /**
     * Whether both versions have the same major (first) number, as in an upgrade that stays within
     * one major release.
     *
     * @throws IllegalArgumentException when either is not a version
     */
    public static boolean sameMajor(String a, String b) {
        return major(a) == major(b);
    }

    /**
     * The first number of a version: 16 for {@code 16.2} and for {@code v16}.
     *
     * @throws IllegalArgumentException when it is not a version or the number is too large for an int
     */
    public static int major(String version) {
        return number(version, 0);
    }

    /**
     * The second number of a version: 2 for {@code 16.2}; 0 when there is none, as in {@code 16}.
     *
     * @throws IllegalArgumentException when it is not a version or the number is too large for an int
     */
    public static int minor(String version) {
        return number(version, 1);
    }

    /**
     * The major version of an image's tag, or -1 when its tag is not a version ({@code latest}, a
     * digest only, no tag): 16 for {@code postgres:16.4}. For rules that treat an unreadable tag as a
     * case of its own rather than as an error.
     */
    public static int imageMajor(String image) {
        try {
            return major(ofImage(image));
        } catch (IllegalArgumentException notAVersion) {
            return -1;
        }
    }

    /**
     * The tag of a container image reference: {@code "16.2"} for {@code ghcr.io/org/postgres:16.2},
     * for {@code postgres:16.2@sha256:...} and for {@code host:5000/pg:16.2}. The tag is returned as
     * written; pass it to {@link #compare} and the other functions when it is a version.
     *
     * @throws IllegalArgumentException naming the image when it has no tag (for instance when it is
     *         pinned by digest only) or the tag is not a valid tag
     */
    public static String ofImage(String image) {
        if (image == null || image.isBlank()) {
            throw new IllegalArgumentException("'" + (image == null ? "null" : image) + "' is not an image:"
                    + " give an image with a tag, e.g. postgres:16.2 or ghcr.io/org/postgres:16.2");
        }
        String reference = image.strip();
        int at = reference.indexOf('@');
        String name = at >= 0 ? reference.substring(0, at) : reference;
        int colon = name.lastIndexOf(':');
        if (colon < 0 || colon < name.lastIndexOf('/')) {
            String example = name.isEmpty() ? "postgres:16.2" : name + ":16.2";
            throw new IllegalArgumentException("image '" + image + "' has no tag"
                    + (at >= 0 ? " (a digest names no version)" : "")
                    + ": write the image with a tag, e.g. " + example + (at >= 0 ? reference.substring(at) : ""));
        }
        String tag = name.substring(colon + 1);
        if (colon == 0 || !TAG.matcher(tag).matches()) {
            throw new IllegalArgumentException("image '" + image + "' has no valid tag: write it as name:tag,"
                    + " where the tag is letters, digits, '_', '.' and '-' (at most 128), e.g. postgres:16.2");
        }
        return tag;
    }

    private static int number(String version, int index) {
        String[] numbers = Version.parse(version).numbers;
        if (index >= numbers.length) {
            return 0;
        }
        String digits = stripZeros(numbers[index]);
        if (digits.length() > 10 || Long.parseLong(digits) > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("'" + version + "' has a number too large to read as an int: use"
                    + " compare(...), which handles numbers of any size");
        }
        return Integer.parseInt(digits);
    }

    private static int compareNumbers(String[] a, String[] b) {
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            int c = compareDigits(i < a.length ? a[i] : "0", i < b.length ? b[i] : "0");
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** Semantic Versioning 2.0.0, rule 11: no pre-release is newer than any pre-release. */
    private static int comparePreReleases(String a, String b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : 1) : -1;
        }
        String[] pa = a.split("\\.");
        String[] pb = b.split("\\.");
        for (int i = 0; i < Math.min(pa.length, pb.length); i++) {
            boolean na = pa[i].chars().allMatch(Character::isDigit);
            boolean nb = pb[i].chars().allMatch(Character::isDigit);
            int c;
            if (na && nb) {
                c = compareDigits(pa[i], pb[i]);
            } else if (na || nb) {
                c = na ? -1 : 1;
            } else {
                c = Integer.signum(pa[i].compareTo(pb[i]));
            }
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(pa.length, pb.length);
    }

    /** Compares digit strings of any length by value. */
    private static int compareDigits(String a, String b) {
        String x = stripZeros(a);
        String y = stripZeros(b);
        if (x.length() != y.length()) {
            return x.length() < y.length() ? -1 : 1;
        }
        return Integer.signum(x.compareTo(y));
    }

    private static String stripZeros(String digits) {
        int i = 0;
        while (i < digits.length() - 1 && digits.charAt(i) == '0') {
            i++;
        }
        return digits.substring(i);
    }

    private static final class Version {
        final String[] numbers;
        final String preRelease;

        private Version(String[] numbers, String preRelease) {
            this.numbers = numbers;
            this.preRelease = preRelease;
        }

        static Version parse(String text) {
            return PARSED.parse(text);
        }

        private static final ParseMemo<Version> PARSED = new ParseMemo<>(Version::parseText);

        private static Version parseText(String text) {
            if (text == null) {
                throw new IllegalArgumentException("null is not a version: give dotted numbers, " + EXAMPLES);
            }
            Matcher m = VERSION.matcher(text.strip());
            if (!m.matches()) {
                String fix = text.contains(":") || text.contains("/")
                        ? "it looks like an image; take its tag with Versions.ofImage(...) first"
                        : "use dotted numbers with an optional leading v and -pre-release, " + EXAMPLES;
                throw new IllegalArgumentException("'" + text + "' is not a version: " + fix);
            }
            return new Version(m.group(1).split("\\."), m.group(2));
        }
    }
}
