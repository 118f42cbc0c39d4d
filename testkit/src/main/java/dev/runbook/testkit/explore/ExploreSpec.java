package dev.runbook.testkit.explore;

import dev.runbook.engine.state.ObservedObject;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A bundle's {@code explore.yaml}: where every run starts, the faults the bundle adds to the
 * engine's catalogue, what the world keeps doing by itself (reactions), and what converged means.
 *
 * @param stateFiles the start state's {@code file:} items as absolute paths, for the scenarios the explorer writes
 * @param stateInline the start state's inline objects
 * @param tick       the time a step lets pass, drawn between one second and twice this
 * @param reactions  applied before every cycle, faults or not; {@code {pod}} is every pod
 * @param contract   what the bundle's pods may report ({@code contract.reports}): each annotation a fault
 * @param converge   what happens once faults stop
 */
public record ExploreSpec(
        String file,
        Instant now,
        Map<String, Object> params,
        List<ObservedObject> state,
        List<Path> stateFiles,
        List<Map<String, Object>> stateInline,
        Duration tick,
        List<DeclaredFault> faults,
        List<DeclaredFault> reactions,
        Convergence converge,
        List<dev.runbook.testkit.explore.fault.InstanceReport> contract) {

    public static final String FILE = "explore.yaml";

    public ExploreSpec {
        params = Map.copyOf(params);
        state = List.copyOf(state);
        stateFiles = List.copyOf(stateFiles);
        stateInline = List.copyOf(stateInline);
        faults = List.copyOf(faults);
        reactions = List.copyOf(reactions);
        contract = List.copyOf(contract);
    }

    /**
     * @param cycles the most cycles to converge in
     * @param every  the time that passes before each of them
     * @param heal   world changes that end the faults' effects (in addition to the engine's: pods ready,
     *               stuck pods gone); {@code {pod}} is every pod
     * @param status what the primary's status must contain once converged
     */
    public record Convergence(int cycles, Duration every, List<DeclaredFault> heal, Map<String, Object> status) {
        public Convergence {
            heal = List.copyOf(heal);
            status = Map.copyOf(status);
        }
    }
}
