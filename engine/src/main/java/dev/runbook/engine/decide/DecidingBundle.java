package dev.runbook.engine.decide;

import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.policy.Policy;

import java.util.List;

/**
 * A bundle ready to decide cycles: what the operator knows of it (its spec, files and version, read by
 * the operator itself) and the decision of one cycle. Where its rules run is the implementation's
 * business: in this process ({@code CompiledBundle}), or in a worker process that holds no credentials
 * (docs/security.md, "The process boundary"). Either way the decision's plan is checked against the
 * policy by the caller's process before anything is applied.
 */
public interface DecidingBundle {
    BundleSpec spec();

    BundleSource source();

    /** The hash of the bundle's content: the same files, the same version. */
    String version();

    /** The names of its rules, sorted. */
    List<String> ruleNames();

    default String name() { return spec().name(); }

    /**
     * One cycle's decision, its plan checked against {@code policy}.
     *
     * @throws FiringLimitExceededException, RuleFailedException as {@link DecisionCycle#run} does
     */
    Decision decide(Observation observation, Policy policy);

    /** Whether its rules run in another process than this one. */
    default boolean isolated() { return false; }

    /**
     * A controller runs it from now on: what it decides with (a worker process) is kept, or started again
     * when a cycle needs it. Counted: each {@code hold} is undone by one {@link #release}.
     */
    default void hold() {}

    /**
     * A controller stopped running it: once nothing holds it and no cycle runs on it, what it decides with
     * (a worker process) ends.
     */
    default void release() {}
}
