package dev.runbook.engine.decide;

import dev.runbook.rules.fact.Primary;
import dev.runbook.rules.fact.Resource;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What one cycle decides from: the primary resource, the secondary objects observed for it, the
 * time, and parameter overrides (on top of the bundle's defaults).
 */
public record Observation(Primary primary, List<Resource> secondaries, Instant now, Map<String, ?> parameterOverrides) {
    public Observation {
        if (primary == null) throw new IllegalArgumentException("an observation needs its primary resource");
        if (now == null) throw new IllegalArgumentException("an observation needs the time");
        secondaries = List.copyOf(secondaries);
        parameterOverrides = Map.copyOf(parameterOverrides);
    }

    public Observation(Primary primary, List<Resource> secondaries, Instant now) {
        this(primary, secondaries, now, Map.of());
    }
}
