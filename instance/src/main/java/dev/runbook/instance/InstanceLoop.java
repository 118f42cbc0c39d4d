package dev.runbook.instance;

import dev.runbook.postgres.contract.Role;
import dev.runbook.instance.act.Actor;
import dev.runbook.instance.act.Refused;
import dev.runbook.instance.backup.ArchiveReport;
import dev.runbook.instance.decide.Decider;
import dev.runbook.instance.decide.Decision;
import dev.runbook.instance.local.LocalInspector;
import dev.runbook.instance.local.LocalState;
import dev.runbook.instance.observe.ClusterObserver;
import dev.runbook.instance.observe.Observation;
import dev.runbook.instance.probe.ProbeServer;
import dev.runbook.instance.probe.StatusEndpoint;
import dev.runbook.instance.report.PodReporter;
import dev.runbook.instance.report.SlotReport;
import dev.runbook.instance.lease.LeaseKeeper;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass: observe (API server, then the local server), decide, report, keep the primary lease, act. A failed pass is
 * logged and the next one starts from what is observed again. A refusal is final for this process:
 * it keeps reporting why and touches nothing until it is restarted.
 */
public final class InstanceLoop {
    private static final Logger LOG = LoggerFactory.getLogger(InstanceLoop.class);

    private final ClusterObserver observer;
    private final LocalInspector inspector;
    private final Decider decider;
    private final Actor actor;
    private final PodReporter reporter;
    private final ProbeServer probes;
    private final Optional<ArchiveReport> archive;
    private final LeaseKeeper leases;
    private final StatusEndpoint status;
    private String refusal;
    private String lastWhy = "";

    /**
     * {@code archive}: when the pod names a store, the WAL archive's report joins the role and position
     * on the pod. {@code leases}: the primary lease (docs/instance-manager.md#fencing).
     */
    public InstanceLoop(ClusterObserver observer, LocalInspector inspector, Decider decider, Actor actor,
                         PodReporter reporter, ProbeServer probes, Optional<ArchiveReport> archive, LeaseKeeper leases,
                         StatusEndpoint status) {
        this.observer = observer;
        this.inspector = inspector;
        this.decider = decider;
        this.actor = actor;
        this.reporter = reporter;
        this.probes = probes;
        this.archive = archive;
        this.leases = leases;
        this.status = status;
    }

    public void pass() {
        if (refusal != null) {
            probes.passed(false, refusal);
            return;
        }
        try {
            long confirmedAt = leases.beforeObserving();
            Observation seen = observer.observe();
            leases.renewHeld(seen, confirmedAt);
            LocalState local = inspector.inspect();
            Decision decision = decider.decide(seen, local, leases.targetFor(seen));
            if (!decision.why().equals(lastWhy)) {
                LOG.info("{} ({}): {}", decision.step(), decision.upstream().isEmpty() ? "-" : decision.upstream(), decision.why());
                lastWhy = decision.why();
            }
            Map<String, String> more = new HashMap<>(archive.filter(a -> local.answering()).map(ArchiveReport::annotations).orElse(Map.of()));
            more.putAll(leases.annotations(seen));
            more.putAll(SlotReport.annotations(seen, local, Role.PRIMARY.equals(decision.reportedRole())));
            reporter.report(decision.reportedRole(), local.lsn(), more);
            leases.keep(seen, local, decision.step(), confirmedAt);
            status.passed(decision, local, leases.leftMillis());
            probes.passed(decision.ready(), decision.why());
            probes.acting(decision.step().name());
            try {
                actor.act(decision);
            } finally {
                probes.acting(null);
            }
        } catch (Refused e) {
            refusal = e.getMessage();
            LOG.error("refused, acting no more until restarted: {}", refusal);
            probes.passed(false, refusal);
            try {
                reporter.problem("InstanceRefused", refusal);
            } catch (RuntimeException reportFailed) {
                LOG.warn("could not report the refusal: {}", reportFailed.getMessage());
            }
        } catch (RuntimeException e) {
            LOG.warn("pass failed, trying again: {}", e.getMessage());
            probes.passed(false, "the last pass failed: " + e.getMessage());
        }
    }
}
