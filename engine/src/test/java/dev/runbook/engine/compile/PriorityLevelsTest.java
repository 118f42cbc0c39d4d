package dev.runbook.engine.compile;

import dev.runbook.engine.TestBundles;
import dev.runbook.engine.bundle.BundleLoader;
import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.problem.InvalidInputException;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** @priority(NAME) takes its salience from bundle.yaml's priorities: (bundles/pausing declares none). */
class PriorityLevelsTest {
    private static Map<String, String> pausing(String bundleYamlTail, String from, String to) {
        Map<String, String> files = new TreeMap<>(BundleLoader.load(TestBundles.directory("pausing")).files());
        files.put("bundle.yaml", files.get("bundle.yaml") + bundleYamlTail);
        files.put("rules/valve.drl", files.get("rules/valve.drl").replace(from, to));
        return files;
    }

    @Test
    void aNamedLevelIsTheRulesSalience() {
        var compiled = BundleCompiler.compile(new BundleSource("levels", pausing("priorities: {derive: 100}\n",
                "rule \"Open the valve\"\n", "rule \"Open the valve\"\n@priority(derive)\n")));

        assertThat(compiled.kieBase().getRule("pausing", "Open the valve")).satisfies(rule ->
                assertThat(((org.drools.base.definitions.rule.impl.RuleImpl) rule).getSalience().getValue()).isEqualTo(100));
        assertThat(((org.drools.base.definitions.rule.impl.RuleImpl) compiled.kieBase().getRule("pausing", "Report the opened valve"))
                .getSalience().getValue()).isZero();
    }

    @Test
    void anUndeclaredLevelIsAnErrorAtTheRule() {
        assertThatThrownBy(() -> BundleCompiler.compile(new BundleSource("levels", pausing("",
                "rule \"Open the valve\"\n", "rule \"Open the valve\"\n@priority(early)\n"))))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("rules/valve.drl:22:")
                .hasMessageContaining("@priority(early) is not a level of bundle.yaml's priorities: (it declares none)");
    }
}
