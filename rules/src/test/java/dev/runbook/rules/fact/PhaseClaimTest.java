package dev.runbook.rules.fact;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class PhaseClaimTest {

    /** A bundle's urgencies, most urgent first, as a DRL {@code declare enum} would give them. */
    enum Urgency { SPLIT_BRAIN, FAILING_OVER, BOOTSTRAPPING }

    enum OtherUrgency { FIRST }

    private static PhaseClaim claim(String phase, Enum<?> urgency) {
        return new PhaseClaim(phase, urgency, phase + "Reason", phase + " message");
    }

    @Test
    void anEarlierUrgencyOutranksALaterOneAndNeitherOfTwoEqualOnes() {
        PhaseClaim splitBrain = claim("Degraded", Urgency.SPLIT_BRAIN);
        PhaseClaim failingOver = claim("FailingOver", Urgency.FAILING_OVER);
        assertThat(splitBrain.outranks(failingOver)).isTrue();
        assertThat(failingOver.outranks(splitBrain)).isFalse();
        assertThat(failingOver.outranks(claim("FailingOver", Urgency.FAILING_OVER))).isFalse();
        assertThat(splitBrain.outranks(splitBrain)).isFalse();
    }

    @Test
    void urgenciesOfTwoEnumsAreRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> claim("Degraded", Urgency.SPLIT_BRAIN).outranks(claim("Pending", OtherUrgency.FIRST)))
                .withMessageContaining("Degraded (Urgency.SPLIT_BRAIN) and Pending (OtherUrgency.FIRST)", "declare one enum of urgencies");
    }

    @Test
    void aClaimNeedsAPhaseAndAnUrgency() {
        assertThatIllegalArgumentException().isThrownBy(() -> new PhaseClaim(" ", Urgency.SPLIT_BRAIN, "r", "m")).withMessageContaining("needs a phase");
        assertThatIllegalArgumentException().isThrownBy(() -> new PhaseClaim("Degraded", null, "r", "m"))
                .withMessageContaining("the PhaseClaim of phase Degraded needs an urgency");
    }

    @Test
    void twoClaimsOfTheSameAreTwoFactsAndPrintWhatTheyClaim() {
        PhaseClaim one = claim("Degraded", Urgency.SPLIT_BRAIN);
        assertThat(one).isNotEqualTo(claim("Degraded", Urgency.SPLIT_BRAIN));
        assertThat(one).hasToString("PhaseClaim( phase=Degraded, urgency=SPLIT_BRAIN, reason=DegradedReason, message=Degraded message )");
        assertThat(new PhaseClaim("Pending", Urgency.BOOTSTRAPPING, null, null).getReason()).isEmpty();
    }
}
