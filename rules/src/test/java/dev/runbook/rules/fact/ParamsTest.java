package dev.runbook.rules.fact;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ParamsTest {
    private static Params params() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("failoverDelay", "30s");
        values.put("maxReplicas", 5L);
        values.put("paused", false);
        values.put("configLevel", "info");
        values.put("retention", null);
        return new Params(values);
    }

    @Test
    void readsDeclaredParametersByType() {
        Params params = params();
        assertThat(params.get("maxReplicas")).isEqualTo(5L);
        assertThat(params.str("configLevel")).isEqualTo("info");
        assertThat(params.str("maxReplicas")).isEqualTo("5");
        assertThat(params.integer("maxReplicas")).isEqualTo(5);
        assertThat(params.bool("paused")).isFalse();
        assertThat(params.duration("failoverDelay")).isEqualTo(Duration.ofSeconds(30));
        assertThat(params.seconds("failoverDelay")).isEqualTo(30);
        assertThat(params).hasToString("Params {failoverDelay=30s, maxReplicas=5, paused=false, configLevel=info, retention=null}");
    }

    @Test
    void anUnknownParameterIsAnErrorNamingTheDeclaredOnes() {
        Params params = params();
        assertThatIllegalArgumentException().isThrownBy(() -> params.seconds("failoverDealy"))
                .withMessage("unknown parameter 'failoverDealy': declare it under parameters in bundle.yaml "
                        + "(declared: [failoverDelay, maxReplicas, paused, configLevel, retention])");
        assertThatIllegalArgumentException().isThrownBy(() -> params.str("nope")).withMessageStartingWith("unknown parameter 'nope'");
        assertThatIllegalArgumentException().isThrownBy(() -> new Params(Map.of()).get("x"))
                .withMessageEndingWith("(declared: [])");
    }

    @Test
    void aValueOfTheWrongTypeIsAnErrorNamingTheParameter() {
        Params params = params();
        assertThatIllegalArgumentException().isThrownBy(() -> params.integer("configLevel"))
                .withMessage("parameter configLevel: 'info' is not a whole number");
        assertThatIllegalArgumentException().isThrownBy(() -> params.bool("configLevel"))
                .withMessage("parameter configLevel: 'info' is not true or false");
        assertThatIllegalArgumentException().isThrownBy(() -> params.seconds("configLevel"))
                .withMessageStartingWith("parameter configLevel: 'info' is not a duration");
        assertThatIllegalArgumentException().isThrownBy(() -> new Params(Map.of("n", 3_000_000_000L)).integer("n"))
                .withMessageStartingWith("parameter n: 3000000000 is too large");
    }

    @Test
    void aDeclaredParameterWithoutAValueIsNullAsTextAndAnErrorOtherwise() {
        Params params = params();
        assertThat(params.get("retention")).isNull();
        assertThat(params.str("retention")).isNull();
        String noValue = "parameter 'retention' has no value: give it a default in bundle.yaml or override it";
        assertThatIllegalArgumentException().isThrownBy(() -> params.integer("retention")).withMessage(noValue);
        assertThatIllegalArgumentException().isThrownBy(() -> params.bool("retention")).withMessage(noValue);
        assertThatIllegalArgumentException().isThrownBy(() -> params.duration("retention")).withMessage(noValue);
        assertThatIllegalArgumentException().isThrownBy(() -> params.seconds("retention")).withMessage(noValue);
    }

    @Test
    void theValuesAreACopyThatCannotChange() {
        Map<String, Object> source = new HashMap<>(Map.of("a", "1"));
        Params params = new Params(source);
        source.put("b", "2");
        assertThat(params.getValues()).containsOnlyKeys("a");
        assertThatThrownBy(() -> params.getValues().put("c", "3")).isInstanceOf(UnsupportedOperationException.class);
    }
}
