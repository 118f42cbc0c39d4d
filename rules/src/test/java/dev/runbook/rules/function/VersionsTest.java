package dev.runbook.rules.function;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class VersionsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "15.10               | 15.9           | 1",
        "15.9                | 15.10          | -1",
        "1.2.3               | 1.2.3          | 0",
        "v1.2.3              | 1.2.3          | 0",
        "V2                  | v1.9.9         | 1",
        "16                  | 16.0.0         | 0",
        "16.0.1              | 16             | 1",
        "1.01                | 1.1            | 0",
        "2.0.0-rc.1          | 2.0.0          | -1",
        "2.0.0               | 2.0.0-rc.1     | 1",
        "2.0.0-rc.1          | 1.9.9          | 1",
        "1.0.0+build.7       | 1.0.0          | 0",
        "1.0.0-rc.1+build.7  | 1.0.0-rc.1     | 0",
        "1.20240101120000000 | 1.9            | 1",
        "' 15.10 '           | 15.9           | 1",
    })
    void comparesByNumbersThenPreRelease(String a, String b, int expected) {
        assertThat(Versions.compare(a, b)).isEqualTo(expected);
        assertThat(Versions.compare(b, a)).isEqualTo(-expected);
        assertThat(Versions.isNewer(a, b)).isEqualTo(expected > 0);
    }

    @Test
    void preReleasesFollowSemanticVersioningOrder() {
        List<String> ascending = List.of("1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta",
                "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0");
        for (int i = 0; i < ascending.size(); i++) {
            for (int j = 0; j < ascending.size(); j++) {
                assertThat(Versions.compare(ascending.get(i), ascending.get(j)))
                        .as("%s vs %s", ascending.get(i), ascending.get(j))
                        .isEqualTo(Integer.compare(i, j));
            }
        }
    }

    @Test
    void anImageVariantSortsLikeAPreRelease() {
        assertThat(Versions.compare("16.2-alpine", "16.2")).isEqualTo(-1);
        assertThat(Versions.compare("16.3-alpine", "16.2-alpine")).isEqualTo(1);
    }

    @Test
    void isNewerIsStrict() {
        assertThat(Versions.isNewer("16.2", "16.1")).isTrue();
        assertThat(Versions.isNewer("16.2", "16.2")).isFalse();
        assertThat(Versions.isNewer("v16.2", "16.2.0")).isFalse();
        assertThat(Versions.isNewer("16.1", "16.2")).isFalse();
    }

    @Test
    void majorAndMinor() {
        assertThat(Versions.major("16.2")).isEqualTo(16);
        assertThat(Versions.minor("16.2")).isEqualTo(2);
        assertThat(Versions.major("v3.11.4")).isEqualTo(3);
        assertThat(Versions.minor("v3.11.4")).isEqualTo(11);
        assertThat(Versions.major("16")).isEqualTo(16);
        assertThat(Versions.minor("16")).isZero();
        assertThat(Versions.major("16.2-alpine")).isEqualTo(16);
        assertThat(Versions.minor("16.2-alpine")).isEqualTo(2);
        assertThat(Versions.major("007.0")).isEqualTo(7);
        assertThat(Versions.major("2147483647")).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void majorRefusesNumbersTooLargeForAnInt() {
        assertThatIllegalArgumentException().isThrownBy(() -> Versions.major("2147483648.1"))
                .withMessage("'2147483648.1' has a number too large to read as an int: use compare(...), which"
                        + " handles numbers of any size");
        assertThatIllegalArgumentException().isThrownBy(() -> Versions.minor("1.20240101120000"))
                .withMessageStartingWith("'1.20240101120000' has a number too large");
    }

    @Test
    void sameMajor() {
        assertThat(Versions.sameMajor("16.2", "16.9")).isTrue();
        assertThat(Versions.sameMajor("v16", "16.0.1-rc.1")).isTrue();
        assertThat(Versions.sameMajor("16.9", "17.0")).isFalse();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "postgres:16.2                                 | 16.2",
        "ghcr.io/org/postgres:16.2                     | 16.2",
        "docker.io/library/postgres:16.2-alpine        | 16.2-alpine",
        "host:5000/pg:16                               | 16",
        "localhost:5000/team/pg:v1.2.3                 | v1.2.3",
        "postgres:16.2@sha256:0123456789abcdef         | 16.2",
        "host:5000/pg:16@sha256:0123456789abcdef       | 16",
        "postgres:latest                               | latest",
        "' postgres:16.2 '                             | 16.2",
    })
    void ofImageReturnsTheTag(String image, String tag) {
        assertThat(Versions.ofImage(image)).isEqualTo(tag);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "postgres                       | image 'postgres' has no tag: write the image with a tag, e.g. postgres:16.2",
        "ghcr.io/org/postgres           | image 'ghcr.io/org/postgres' has no tag: write the image with a tag, e.g. ghcr.io/org/postgres:16.2",
        "host:5000/pg                   | image 'host:5000/pg' has no tag: write the image with a tag, e.g. host:5000/pg:16.2",
        "postgres@sha256:0123456789abcd | image 'postgres@sha256:0123456789abcd' has no tag (a digest names no version): write the image with a tag, e.g. postgres:16.2@sha256:0123456789abcd",
        "postgres:                      | image 'postgres:' has no valid tag: write it as name:tag",
        ":16                            | image ':16' has no valid tag",
        "postgres:16 2                  | image 'postgres:16 2' has no valid tag",
        "postgres:.16                   | image 'postgres:.16' has no valid tag",
    })
    void ofImageNamesTheImageWhenThereIsNoTag(String image, String message) {
        assertThatIllegalArgumentException().isThrownBy(() -> Versions.ofImage(image))
                .withMessageStartingWith(message);
    }

    @Test
    void ofImageRefusesNullAndBlank() {
        assertThatIllegalArgumentException().isThrownBy(() -> Versions.ofImage(null))
                .withMessage("'null' is not an image: give an image with a tag, e.g. postgres:16.2 or"
                        + " ghcr.io/org/postgres:16.2");
        assertThatIllegalArgumentException().isThrownBy(() -> Versions.ofImage(" "))
                .withMessageStartingWith("' ' is not an image: ");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "latest        | use dotted numbers with an optional leading v and -pre-release, e.g. 15.10, v1.2.3, 2.0.0-rc.1",
        "''            | use dotted numbers",
        "v             | use dotted numbers",
        "1..2          | use dotted numbers",
        "1.2.          | use dotted numbers",
        ".1            | use dotted numbers",
        "1.2-          | use dotted numbers",
        "1.2-rc..1     | use dotted numbers",
        "1.x           | use dotted numbers",
        "postgres:16.2 | it looks like an image; take its tag with Versions.ofImage(...) first",
    })
    void refusesWhatIsNotAVersion(String text, String fix) {
        for (var call : List.<Runnable>of(
                () -> Versions.compare(text, "1"), () -> Versions.compare("1", text),
                () -> Versions.major(text), () -> Versions.minor(text),
                () -> Versions.isNewer(text, "1"), () -> Versions.sameMajor("1", text))) {
            assertThatIllegalArgumentException().isThrownBy(call::run)
                    .withMessageStartingWith("'" + text + "' is not a version: ")
                    .withMessageContaining(fix);
        }
    }

    @Test
    void refusesNull() {
        assertThatIllegalArgumentException().isThrownBy(() -> Versions.compare(null, "1"))
                .withMessage("null is not a version: give dotted numbers, e.g. 15.10, v1.2.3, 2.0.0-rc.1");
    }

    @Test
    void imageMajorIsTheTagsMajorOrMinusOne() {
        assertThat(Versions.imageMajor("postgres:16.4")).isEqualTo(16);
        assertThat(Versions.imageMajor("ghcr.io/org/postgres:17.0@sha256:abc")).isEqualTo(17);
        assertThat(Versions.imageMajor("postgres:latest")).isEqualTo(-1);
        assertThat(Versions.imageMajor("postgres@sha256:abc")).isEqualTo(-1);
        assertThat(Versions.imageMajor(null)).isEqualTo(-1);
    }
}
