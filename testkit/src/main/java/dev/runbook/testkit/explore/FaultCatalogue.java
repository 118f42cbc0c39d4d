package dev.runbook.testkit.explore;

import dev.runbook.engine.bundle.CrdSchemas;
import dev.runbook.engine.bundle.Kind;
import dev.runbook.testkit.explore.fault.AnnotationGarbled;
import dev.runbook.testkit.explore.fault.ClockJump;
import dev.runbook.testkit.explore.fault.JobFails;
import dev.runbook.testkit.explore.fault.JobSucceeds;
import dev.runbook.testkit.explore.fault.NodeBack;
import dev.runbook.testkit.explore.fault.NodeDown;
import dev.runbook.testkit.explore.fault.NodeLost;
import dev.runbook.testkit.explore.fault.OperatorRestart;
import dev.runbook.testkit.explore.fault.PodDeleted;
import dev.runbook.testkit.explore.fault.PodNotReady;
import dev.runbook.testkit.explore.fault.PodRecovers;
import dev.runbook.testkit.explore.fault.PodStuckTerminating;
import dev.runbook.testkit.explore.fault.SpecEdit;
import dev.runbook.testkit.explore.schema.SpecFields;
import dev.runbook.engine.state.StateFiles;
import dev.runbook.engine.state.ObservedObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The faults the explorer draws from: the engine's (pods, Nodes, Jobs, the clock, restarts), the user's
 * edits of the spec drawn from the primary's CRD ({@link SpecEdit}, weighted as {@link #USER_EDIT_WEIGHT}
 * faults so that edits come often, in every phase of a run), what the bundle's pods may report
 * ({@code contract} in explore.yaml) and the bundle's own declared faults, in that order.
 */
public final class FaultCatalogue {
    /** How many of the catalogue's draws are user edits: about a third of all faults, so that a request meets every phase. */
    static final int USER_EDIT_WEIGHT = 10;

    private FaultCatalogue() {}

    /** The engine's faults, which any bundle gets. */
    public static List<Fault> engine() {
        return List.of(new PodNotReady(), new PodRecovers(), new PodDeleted(), new PodStuckTerminating(), new NodeLost(),
                new NodeDown(), new NodeBack(), new ClockJump(), new AnnotationGarbled(), new JobFails(), new JobSucceeds(),
                new OperatorRestart());
    }

    /** The engine's faults and the bundle's declared ones, without edits of the spec. */
    public static List<Fault> of(ExploreSpec spec) {
        return of(spec, null);
    }

    /** Every fault, with the user's edits of {@code userEdits} (null: none). */
    public static List<Fault> of(ExploreSpec spec, SpecEdit userEdits) {
        List<Fault> all = new ArrayList<>(engine());
        if (userEdits != null && !userEdits.fields().isEmpty()) {
            for (int i = 0; i < USER_EDIT_WEIGHT; i++) all.add(userEdits);
        }
        all.addAll(spec.contract());
        all.addAll(spec.faults());
        return List.copyOf(all);
    }

    /**
     * The user's edits of the bundle's primary kind: every field of its CRD's spec schema, with the values
     * the bundle's samples and the run's start state give it. Null when the bundle has no CRD for the kind.
     */
    public static SpecEdit userEdits(Path bundle, Kind primary, ExploreSpec spec) {
        Map<String, Object> schema = CrdSchemas.read(bundle).specSchema(primary);
        if (schema == null) return null;
        List<Map<String, Object>> examples = new ArrayList<>();
        for (ObservedObject object : spec.state()) if (primary.matches(object.apiVersion(), object.kind())) examples.add(object.object());
        for (ObservedObject object : samples(bundle)) if (primary.matches(object.apiVersion(), object.kind())) examples.add(object.object());
        return new SpecEdit(primary.kind(), SpecFields.of(schema, examples));
    }

    private static List<ObservedObject> samples(Path bundle) {
        Path dir = bundle.resolve("samples");
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> files = Files.list(dir)) {
            return StateFiles.read(files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
