package dev.runbook.operator.command;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --shards} and {@code --member}: off unless turned on, the member named stably, and each refusal naming its fix. */
class ShardsOptionTest {
    @Test
    void offByDefault() {
        ShardsOption.Choice choice = options(null, null).chosen(Map.of("POD_NAME", "runbook-0", "HOSTNAME", "runbook-0"));
        assertThat(choice.sharded()).isFalse();
        assertThat(choice.problem()).isNull();
    }

    @Test
    void theMemberIsThePodsNameElseTheHostsWithoutAnyRandomPart() {
        assertThat(options(true, null).chosen(Map.of("POD_NAME", "runbook-operator-1", "HOSTNAME", "other")).member())
                .isEqualTo("runbook-operator-1");
        assertThat(options(true, null).chosen(Map.of("HOSTNAME", "box-7")).member()).isEqualTo("box-7");
        assertThat(options(true, null).chosen(Map.of("HOSTNAME", "box-7")).member())
                .as("the same name on every start, so a restarted replica keeps its share")
                .isEqualTo(options(true, null).chosen(Map.of("HOSTNAME", "box-7")).member());
        assertThat(options(true, "replica-a").chosen(Map.of("POD_NAME", "runbook-operator-1")).member()).isEqualTo("replica-a");
    }

    @Test
    void theVariableTurnsItOnAndTheOptionWins() {
        assertThat(options(null, null).chosen(Map.of(ShardsOption.VARIABLE, " TRUE ", "POD_NAME", "p-0")).member()).isEqualTo("p-0");
        assertThat(options(null, null).chosen(Map.of(ShardsOption.VARIABLE, "false", "POD_NAME", "p-0")).sharded()).isFalse();
        assertThat(options(true, null).chosen(Map.of(ShardsOption.VARIABLE, "false", "POD_NAME", "p-0")).member()).isEqualTo("p-0");
        assertThat(options(null, null).chosen(Map.of(ShardsOption.VARIABLE, "yes")).problem())
                .isEqualTo("RUNBOOK_SHARDS=yes: give true or false, or unset it");
    }

    @Test
    void noNameIsRefusedNamingTheOption() {
        assertThat(options(true, null).chosen(Map.of()).problem()).isEqualTo("--shards needs this replica's member name, and "
                + "neither $POD_NAME nor $HOSTNAME is set: give --member NAME (a name kept across restarts, such as the pod's)");
    }

    @Test
    void aNameThatIsNotALabelValueIsRefusedNamingWhereItCameFrom() {
        assertThat(options(true, "-bad-").chosen(Map.of()).problem())
                .startsWith("--member -bad-: shard member name '-bad-' is not a label value: use at most 63 letters")
                .endsWith("; give --member NAME");
        String tooLong = "p".repeat(64);
        assertThat(options(true, null).chosen(Map.of("POD_NAME", tooLong)).problem())
                .startsWith("$POD_NAME=" + tooLong + ": shard member name").endsWith("; give --member NAME");
    }

    @Test
    void aMemberWithoutShardsIsRefused() {
        assertThat(options(null, "replica-a").chosen(Map.of()).problem())
                .isEqualTo("--member replica-a names a shard member, but sharding is off: add --shards (or set RUNBOOK_SHARDS=true), "
                        + "or drop --member");
    }

    private static ShardsOption options(Boolean shards, String member) {
        ShardsOption options = new ShardsOption();
        options.shards = shards;
        options.member = member;
        return options;
    }
}
