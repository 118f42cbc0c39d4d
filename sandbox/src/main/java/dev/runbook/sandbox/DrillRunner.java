package dev.runbook.sandbox;

import dev.runbook.rules.fact.ObjectPath;
import dev.runbook.rules.fact.ObjectRef;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

import static dev.runbook.sandbox.Sandbox.display;

/**
 * Plays a bundle's {@link Drill} on a started {@link Sandbox}: applies the sample, then each step in
 * order, waiting on what the timeline has printed so that the drill's own lines follow the cycles that
 * prompted them. Awaits give up after the sandbox's timeout with what the API server holds.
 */
public final class DrillRunner {
    /** Set on the primary after the clock jumps, so that the operator looks now rather than at its next requeue. */
    static final String CLOCK_ANNOTATION = "sandbox.runbook.dev/clock";

    private final Sandbox sandbox;
    private final Drill drill;

    public DrillRunner(Sandbox sandbox, Drill drill) {
        this.sandbox = sandbox;
        this.drill = drill;
    }

    public void run(PrintWriter out) {
        Timeline timeline = sandbox.timeline();
        ObjectRef primary = sandbox.primary();
        timeline.note("apply " + display(drill.sample()) + ": " + primary.getKind() + " " + primary.getNamespace() + "/"
                + primary.getName() + "; the drill is " + display(drill.file()) + " (" + drill.steps().size() + " steps)");
        sandbox.apply(sandbox.sample());
        for (Drill.Step step : drill.steps()) {
            // A Job the operator creates: its cycle's entry comes before the step's note.
            if (step.action() != null && step.action().startsWith("job")) job(step);
            if (step.note() != null) timeline.note(step.note());
            if (step.action() != null) play(step);
            if (step.milestone() != null) timeline.milestone(step.milestone());
        }
        sandbox.summary(out, drill.summary() + " in " + Sandbox.seconds(timeline.elapsed()) + " on the sandbox clock");
    }

    private void play(Drill.Step step) {
        ObjectRef primary = sandbox.primary();
        var client = sandbox.client();
        var resource = client.genericKubernetesResources(primary.getApiVersion(), primary.getKind())
                .inNamespace(primary.getNamespace()).withName(primary.getName());
        switch (step.action()) {
            case "await" -> {
                if ("gone".equals(step.argument())) {
                    // The cycle that released the finalizer reads the primary gone: its entry is printed by then.
                    sandbox.awaitCluster(primary.getKind() + " " + primary.getName() + " to be gone",
                            seen -> seen.primary().isEmpty() && resource.get() == null);
                } else if (step.of() != null) {
                    ObjectRef other = sandbox.ref(step.of());
                    Map<String, Object> fields = step.fields();
                    sandbox.awaitWorld(step.of() + " to have " + describe(fields),
                            () -> sandbox.api().get(other).map(object -> matches(object, fields)).orElse(false));
                } else {
                    Map<String, Object> fields = step.fields();
                    sandbox.awaitCluster(describe(fields) + (step.settled() ? " with nothing left to change" : ""),
                            seen -> (!step.settled() || seen.settled()) && matches(seen.primary(), fields));
                }
            }
            case "patch" -> {
                String patch = client.getKubernetesSerialization().asJson(step.argument());
                sandbox.worldChange(() -> resource.patch(PatchContext.of(PatchType.JSON_MERGE), patch));
            }
            case "advance" -> {
                Duration by = step.duration();
                sandbox.clock().advance(by);
                sandbox.timeline().note("the clock jumps " + Sandbox.seconds(by) + " ahead (the operator and the simulated controllers share it)");
                String patch = client.getKubernetesSerialization().asJson(Map.of("metadata", Map.of("annotations",
                        Map.of(CLOCK_ANNOTATION, sandbox.clock().instant().toString()))));
                sandbox.worldChange(() -> resource.patch(PatchContext.of(PatchType.JSON_MERGE), patch));
            }
            case "delete" -> sandbox.worldChange(resource::delete);
            case "jobSucceeds" -> {
                ObjectRef job = job(step);
                sandbox.worldChange(() -> sandbox.simulated().jobSucceeds(job, sandbox.clock().instant()));
            }
            case "jobFails" -> {
                ObjectRef job = job(step);
                sandbox.worldChange(() -> sandbox.simulated().jobFails(job, sandbox.clock().instant()));
            }
            case "podReady" -> sandbox.worldChange(() -> sandbox.simulated().podReady(sandbox.pod(name(step)), sandbox.clock().instant()));
            case "podNotReady" -> sandbox.worldChange(() -> sandbox.simulated().podNotReady(sandbox.pod(name(step)), sandbox.clock().instant()));
            default -> throw new IllegalStateException("not a drill action: " + step.action());
        }
    }

    /**
     * The step's Job, once the timeline has printed the cycle that created it (the sample is the primary
     * alone, so every Job is the operator's).
     */
    private ObjectRef job(Drill.Step step) {
        ObjectRef ref = ObjectRef.of("batch/v1", "Job", sandbox.primary().getNamespace(), name(step));
        sandbox.awaitWorld("the operator to create Job " + ref.getName(), () -> sandbox.timeline().touched(ref));
        return ref;
    }

    private static String name(Drill.Step step) { return String.valueOf(step.argument()); }

    /** Each path holds the value, compared as text (so 2 matches 2.0, and 1.0.0 a string). */
    private static boolean matches(Map<String, Object> object, Map<String, Object> fields) {
        return fields.entrySet().stream()
                .allMatch(f -> Timeline.text(f.getValue()).equals(Timeline.text(ObjectPath.read(object, f.getKey()))));
    }

    private static String describe(Map<String, Object> fields) {
        return fields.entrySet().stream().map(f -> f.getKey() + " == " + Timeline.text(f.getValue())).collect(Collectors.joining(" and "));
    }
}
