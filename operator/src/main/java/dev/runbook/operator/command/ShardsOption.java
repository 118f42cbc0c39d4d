package dev.runbook.operator.command;

import dev.runbook.operator.shard.ShardLabels;
import picocli.CommandLine.Option;

import java.util.Locale;
import java.util.Map;

/**
 * {@code --shards} and {@code --member NAME} of {@code runbook run}: several replicas share the primaries
 * by shard (docs/sharding.md). Sharding comes from the option, else from {@value #VARIABLE} (so that the
 * chart turns it on with a value); the member's name from {@code --member}, else {@code $POD_NAME} (the
 * chart sets it from the Downward API), else {@code $HOSTNAME}. Never with a random part: the name is the
 * replica's share, so a replica restarted under the same name keeps its share instead of having it moved.
 */
public final class ShardsOption {
    /** The environment variable that turns sharding on when {@code --shards} is not given. */
    public static final String VARIABLE = "RUNBOOK_SHARDS";

    @Option(names = "--shards",
            description = "Share the primaries with the other replicas by shard: each replica holds a Lease of its own "
                    + "(runbook-shard-MEMBER) and acts only on the primaries labelled runbook.dev/shard=MEMBER; the replica "
                    + "holding the leader Lease (--lease) assigns them (default: $" + VARIABLE + ", else off). "
                    + "Needs the operator's own namespace. See docs/sharding.md.")
    Boolean shards;

    @Option(names = "--member", paramLabel = "NAME",
            description = "This replica's name among the shards, the value of runbook.dev/shard on its primaries: keep it "
                    + "across restarts so the replica keeps its share (default: $POD_NAME, else $HOSTNAME; a label value, "
                    + "at most 63 letters, digits, '-', '_' or '.').")
    String member;

    /** Whether sharding is on and as whom, or why the options cannot be used: at most one of member and problem is set. */
    public record Choice(String member, String problem) {
        public boolean sharded() { return member != null; }
    }

    /** Sharding as the options and {@code environment} give it; off (no member, no problem) when neither turns it on. */
    public Choice chosen(Map<String, String> environment) {
        Boolean on = shards;
        if (on == null) {
            String text = environment.get(VARIABLE);
            if (text != null && !text.isBlank()) {
                switch (text.strip().toLowerCase(Locale.ROOT)) {
                    case "true" -> on = true;
                    case "false" -> on = false;
                    default -> {
                        return new Choice(null, VARIABLE + "=" + text.strip() + ": give true or false, or unset it");
                    }
                }
            }
        }
        if (on == null || !on) {
            return member == null ? new Choice(null, null)
                    : new Choice(null, "--member " + member + " names a shard member, but sharding is off: add --shards (or set "
                            + VARIABLE + "=true), or drop --member");
        }
        String name = member != null ? member : firstSet(environment, "POD_NAME", "HOSTNAME");
        String from = member != null ? "--member " + member : name == null ? null
                : (environment.get("POD_NAME") != null && !environment.get("POD_NAME").isBlank() ? "$POD_NAME=" : "$HOSTNAME=") + name;
        if (name == null) {
            return new Choice(null, "--shards needs this replica's member name, and neither $POD_NAME nor $HOSTNAME is set: "
                    + "give --member NAME (a name kept across restarts, such as the pod's)");
        }
        try {
            return new Choice(ShardLabels.requireMemberName(name.strip()), null);
        } catch (IllegalArgumentException e) {
            return new Choice(null, from + ": " + e.getMessage() + "; give --member NAME");
        }
    }

    private static String firstSet(Map<String, String> environment, String... variables) {
        for (String variable : variables) {
            String value = environment.get(variable);
            if (value != null && !value.isBlank()) return value.strip();
        }
        return null;
    }
}
