package dev.runbook.engine.containment;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The overrides are read every cycle: a property set while an operator runs applies to its next cycle. */
class ContainmentOverridesTest {
    private static final ContainmentLimits POLICY = new ContainmentLimits(Duration.ofSeconds(2), Duration.ofSeconds(20),
            Duration.ofMinutes(3), 128L * 1024 * 1024);
    private String cycleBefore;
    private String memoryBefore;

    @BeforeEach
    void keepTheProperties() {
        cycleBefore = System.getProperty(ContainmentLimits.CYCLE_PROPERTY);
        memoryBefore = System.getProperty(ContainmentLimits.MEMORY_PROPERTY);
        System.clearProperty(ContainmentLimits.CYCLE_PROPERTY);
        System.clearProperty(ContainmentLimits.MEMORY_PROPERTY);
    }

    @AfterEach
    void restoreTheProperties() {
        restore(ContainmentLimits.CYCLE_PROPERTY, cycleBefore);
        restore(ContainmentLimits.MEMORY_PROPERTY, memoryBefore);
    }

    @Test
    void aPropertySetBetweenTwoCyclesAppliesToTheNextAndClearingItRestoresThePolicys() {
        assertThat(POLICY.overriddenBySettings().cycleDeadline()).isEqualTo(Duration.ofSeconds(2));
        System.setProperty(ContainmentLimits.CYCLE_PROPERTY, "750ms");
        assertThat(POLICY.overriddenBySettings().cycleDeadline()).isEqualTo(Duration.ofMillis(750));
        System.setProperty(ContainmentLimits.MEMORY_PROPERTY, "64");
        assertThat(POLICY.overriddenBySettings()).isEqualTo(new ContainmentLimits(Duration.ofMillis(750),
                Duration.ofSeconds(20), Duration.ofMinutes(3), 64L * 1024 * 1024));
        System.clearProperty(ContainmentLimits.CYCLE_PROPERTY);
        System.clearProperty(ContainmentLimits.MEMORY_PROPERTY);
        assertThat(POLICY.overriddenBySettings()).isEqualTo(POLICY);
    }

    @Test
    void unchangedSettingsAndLimitsGiveTheLimitsComputedBeforeWithoutParsingAgain() {
        System.setProperty(ContainmentLimits.CYCLE_PROPERTY, "1s");
        ContainmentLimits first = POLICY.overriddenBySettings();
        assertThat(POLICY.overriddenBySettings()).isSameAs(first);
        // Other limits from the policy are other limits in force, even with the same settings.
        ContainmentLimits other = ContainmentLimits.defaults().overriddenBySettings();
        assertThat(other.cycleDeadline()).isEqualTo(Duration.ofSeconds(1));
        assertThat(other.scenarioDeadline()).isEqualTo(ContainmentLimits.DEFAULT_SCENARIO_DEADLINE);
        assertThat(POLICY.overriddenBySettings().scenarioDeadline()).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void aMistakenPropertyIsRefusedOnEveryCycleNamingItAndTheFix() {
        System.setProperty(ContainmentLimits.CYCLE_PROPERTY, "5");
        for (int cycle = 0; cycle < 2; cycle++) {
            assertThatThrownBy(POLICY::overriddenBySettings).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("runbook.cycleDeadline / RUNBOOK_CYCLE_DEADLINE: ").hasMessageContaining("add a unit");
        }
        System.clearProperty(ContainmentLimits.CYCLE_PROPERTY);
        System.setProperty(ContainmentLimits.MEMORY_PROPERTY, "lots");
        assertThatThrownBy(POLICY::overriddenBySettings)
                .hasMessageContaining("runbook.cycleMemoryMiB / RUNBOOK_CYCLE_MEMORY: a whole number of MiB");
    }

    @Test
    void theEnvironmentWinsOverAPropertyForEachLimitItSets() {
        ContainmentOverrides environment = new ContainmentOverrides("2s", null, null, "64");
        ContainmentOverrides properties = new ContainmentOverrides("1s", "9s", null, "32");
        assertThat(environment.over(properties)).isEqualTo(new ContainmentOverrides("2s", "9s", null, "64"));
        assertThat(environment.over(properties).applyTo(POLICY)).isEqualTo(new ContainmentLimits(Duration.ofSeconds(2),
                Duration.ofSeconds(9), Duration.ofMinutes(3), 64L * 1024 * 1024));
    }

    private static void restore(String property, String value) {
        if (value == null) System.clearProperty(property); else System.setProperty(property, value);
    }
}
