package dev.runbook.operator.observe;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LabelMappingTest {
    @Test
    void aValueThatIsTheNameGivesThePrimary() {
        LabelMapping mapping = new LabelMapping(Map.of("postgres.runbook.dev/cluster", "{name}"));
        assertThat(mapping.primaryName(Map.of("postgres.runbook.dev/cluster", "pg", "other", "x"))).contains("pg");
        assertThat(mapping.primaryName(Map.of("other", "x"))).isEmpty();
        assertThat(mapping.primaryName(null)).isEmpty();
    }

    @Test
    void theNameCanBePartOfAValueAndConstantsMustMatch() {
        Map<String, String> selector = new LinkedHashMap<>();
        selector.put("app", "web-{name}");
        selector.put("tier", "front");
        LabelMapping mapping = new LabelMapping(selector);

        assertThat(mapping.primaryName(Map.of("app", "web-shop", "tier", "front"))).contains("shop");
        assertThat(mapping.primaryName(Map.of("app", "web-shop", "tier", "back"))).isEmpty();
        assertThat(mapping.primaryName(Map.of("app", "api-shop", "tier", "front"))).isEmpty();
        assertThat(mapping.informerSelector()).isEqualTo("tier=front,app");
    }

    @Test
    void twoValuesThatNameDifferentPrimariesNameNone() {
        LabelMapping mapping = new LabelMapping(Map.of("a", "{name}", "b", "{name}-db"));
        assertThat(mapping.primaryName(Map.of("a", "shop", "b", "shop-db"))).contains("shop");
        assertThat(mapping.primaryName(Map.of("a", "shop", "b", "cart-db"))).isEmpty();
    }

    @Test
    void aSelectorOfConstantsNamesNoPrimaryButMatches() {
        LabelMapping mapping = new LabelMapping(Map.of("team", "payments"));
        assertThat(mapping.namesThePrimary()).isFalse();
        assertThat(mapping.primaryName(Map.of("team", "payments"))).isEmpty();
        assertThat(mapping.matchesConstants(Map.of("team", "payments"))).isTrue();
        assertThat(mapping.matchesConstants(Map.of("team", "search"))).isFalse();
    }

    @Test
    void regexCharactersInValuesAreLiteral() {
        LabelMapping mapping = new LabelMapping(Map.of("app", "a.b+{name}"));
        assertThat(mapping.primaryName(Map.of("app", "a.b+shop"))).contains("shop");
        assertThat(mapping.primaryName(Map.of("app", "axbbshop"))).isEmpty();
    }
}
