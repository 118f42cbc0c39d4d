package dev.runbook.engine.containment;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

class RegexShapeTest {
    @ParameterizedTest
    @ValueSource(strings = {"(.*a){20}", "(a+)+$", "(a*)*b", "(a|aa)+", "(\\w+\\s?)+$", "([a-z]+-?)*x", "(a+){2,}", "^(a)\\1$",
            "(?<x>a)\\k<x>", "((ab)*c)+"})
    void shapesThatCanBacktrackForAgesAreRefused(String regex) {
        assertThat(RegexShape.problem(regex)).as(regex).isNotNull();
    }

    /** The shipped bundles' regular expressions, and everyday ones. */
    @ParameterizedTest
    @ValueSource(strings = {"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})",
            "[A-Za-z0-9]([-._A-Za-z0-9]*[A-Za-z0-9])?", "restored .+", "[0-9]{1,18}", "(ab){3}", "a*b+c?", "[(+*)]+",
            "\\(a+\\)+", "x{2,5}", ",", ""})
    void otherShapesAreAllowed(String regex) {
        assertThat(RegexShape.problem(regex)).as(regex).isNull();
    }
}
