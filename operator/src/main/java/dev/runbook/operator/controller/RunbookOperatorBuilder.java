package dev.runbook.operator.controller;

import dev.runbook.engine.decide.DecidingBundle;
import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.cycle.CycleListener;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Clock;
import java.util.List;
import java.util.Set;

/**
 * How a {@link RunbookOperator} is made ({@link RunbookOperator#builder}): each setting by name, each
 * with a default, so that a caller names only what it changes.
 *
 * <pre>{@code
 * RunbookOperator operator = RunbookOperator.builder(client)
 *         .bundles(List.of(bundle)).namespaces(Set.of("apps")).listener(cycles).build();
 * }</pre>
 */
public final class RunbookOperatorBuilder {
    private final KubernetesClient client;
    private List<DecidingBundle> bundles = List.of();
    private Set<String> namespaces = Set.of();
    private Clock clock = Clock.systemUTC();
    private CycleListener listener = CycleListener.NONE;
    private Policy policy = Policy.DEFAULT;
    private int reconcileThreads = ReconcileThreads.byDefault();
    private String shardMember;

    RunbookOperatorBuilder(KubernetesClient client) {
        this.client = client;
    }

    /** The bundles to start with (more can be installed later); their source is their origin. None by default. */
    public RunbookOperatorBuilder bundles(List<DecidingBundle> bundles) {
        this.bundles = List.copyOf(bundles);
        return this;
    }

    /**
     * Runs only the primaries of shard member {@code member}: those labelled {@code runbook.dev/shard=MEMBER},
     * the only ones its informers cache, and acknowledges their drains (docs/sharding.md). Null (the
     * default): every primary, unsharded.
     */
    public RunbookOperatorBuilder shardMember(String member) {
        this.shardMember = member == null ? null : dev.runbook.operator.shard.ShardLabels.requireMemberName(member);
        return this;
    }

    /** The namespaces to watch; empty (the default) for all of them. */
    public RunbookOperatorBuilder namespaces(Set<String> namespaces) {
        this.namespaces = Set.copyOf(namespaces);
        return this;
    }

    /** The clock the cycles read; the system's (UTC) by default. */
    public RunbookOperatorBuilder clock(Clock clock) {
        this.clock = clock;
        return this;
    }

    /** Told about every recorded cycle; nobody by default. */
    public RunbookOperatorBuilder listener(CycleListener listener) {
        this.listener = listener;
        return this;
    }

    /**
     * What the administrator lets each bundle touch (docs/security.md): every plan, and every reloaded
     * bundle's scenarios, are checked against it. {@link Policy#DEFAULT} by default.
     */
    public RunbookOperatorBuilder policy(Policy policy) {
        this.policy = policy;
        return this;
    }

    /** How many cycles each bundle's controller runs at once ({@link ReconcileThreads}; its default by default). */
    public RunbookOperatorBuilder reconcileThreads(int reconcileThreads) {
        this.reconcileThreads = reconcileThreads;
        return this;
    }

    /**
     * @throws IllegalArgumentException when the reconcile threads are fewer than 1, or two bundles have
     *                                  the same name or reconcile the same kind
     */
    public RunbookOperator build() {
        return new RunbookOperator(client, bundles, namespaces, clock, listener, policy, reconcileThreads, shardMember);
    }
}
