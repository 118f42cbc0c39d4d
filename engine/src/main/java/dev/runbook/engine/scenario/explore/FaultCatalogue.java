package dev.runbook.engine.scenario.explore;

import dev.runbook.engine.scenario.explore.fault.AnnotationGarbled;
import dev.runbook.engine.scenario.explore.fault.ClockJump;
import dev.runbook.engine.scenario.explore.fault.JobFails;
import dev.runbook.engine.scenario.explore.fault.JobSucceeds;
import dev.runbook.engine.scenario.explore.fault.NodeLost;
import dev.runbook.engine.scenario.explore.fault.OperatorRestart;
import dev.runbook.engine.scenario.explore.fault.PodDeleted;
import dev.runbook.engine.scenario.explore.fault.PodNotReady;
import dev.runbook.engine.scenario.explore.fault.PodRecovers;
import dev.runbook.engine.scenario.explore.fault.PodStuckTerminating;

import java.util.ArrayList;
import java.util.List;

/** The faults the explorer draws from: the engine's, then the bundle's own (explore.yaml), in that order. */
public final class FaultCatalogue {
    private FaultCatalogue() {}

    /** The engine's faults, which any bundle gets. */
    public static List<Fault> engine() {
        return List.of(new PodNotReady(), new PodRecovers(), new PodDeleted(), new PodStuckTerminating(), new NodeLost(),
                new ClockJump(), new AnnotationGarbled(), new JobFails(), new JobSucceeds(), new OperatorRestart());
    }

    public static List<Fault> of(ExploreSpec spec) {
        List<Fault> all = new ArrayList<>(engine());
        all.addAll(spec.faults());
        return List.copyOf(all);
    }
}
