package dev.runbook.sandbox;

import dev.runbook.operator.act.AppliedAction;
import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.rules.action.Action;
import dev.runbook.rules.action.EmitEvent;
import dev.runbook.rules.action.SetCondition;
import dev.runbook.rules.action.SetMetadataEntry;
import dev.runbook.rules.action.SetStatus;
import dev.runbook.rules.fact.ObjectPath;
import dev.runbook.rules.fact.ObjectRef;
import dev.runbook.rules.fact.Primary;

import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * What the sandbox prints as it goes: one entry per cycle that changed something (the time since the
 * start on the shared clock, the primary, its phase and ready instances after the cycle, then each
 * action that changed something with its outcome and the rules that asked for it), a line for each
 * failed cycle, and the sandbox's own steps (lines with {@code --}). Cycles that changed nothing are
 * counted, not printed.
 *
 * <p>After each cycle it reads what the cycle left behind and publishes it ({@link #seen()}) only once
 * the cycle's entry is printed: the sandbox waits on that, so that its own steps never appear in the
 * timeline before the cycle that prompted them.
 */
public final class Timeline implements CycleListener {
    public static final String INDENT = "          ";

    /**
     * The primary as the API server holds it after a cycle, the role label of each of its pods, and
     * whether that cycle found nothing left to change ({@link CycleReport#settled()}: the primary's
     * {@code status.lastCycle} does not say so, it keeps the last cycle that changed something).
     */
    public record Seen(Map<String, Object> primary, Map<String, String> roles, boolean settled) {
        static final Seen NOTHING = new Seen(Map.of(), Map.of(), false);

        /** This, as the cycle of {@code report} left it. */
        Seen recordedBy(CycleReport report) {
            return new Seen(primary, roles, report.settled());
        }
    }

    private final PrintWriter out;
    private final Clock clock;
    private final Instant start;
    private final Function<ObjectRef, Seen> reader;
    private final AtomicInteger cycles = new AtomicInteger();
    private final AtomicInteger changing = new AtomicInteger();
    private volatile Seen seen = Seen.NOTHING;
    /** The objects that printed cycles changed, as Kind namespace/name. */
    private final Set<String> touched = ConcurrentHashMap.newKeySet();
    private volatile boolean stopped;

    /**
     * @param reader reads the primary and its pods from the API server after a cycle
     */
    public Timeline(PrintWriter out, Clock clock, Function<ObjectRef, Seen> reader) {
        this.out = out;
        this.clock = clock;
        this.start = clock.instant();
        this.reader = reader;
    }

    /** What the last cycle whose entry is printed left behind. */
    public Seen seen() { return seen; }

    /** Whether a cycle whose entry is printed changed the object (the operator created a Job, say). */
    public boolean touched(ObjectRef ref) { return touched.contains(key(ref)); }

    private static String key(ObjectRef ref) { return ref.getKind() + " " + ref.getNamespace() + "/" + ref.getName(); }

    /** Prints nothing more: the sandbox is closing. */
    public void stop() { stopped = true; }

    /** The time since the start, on the shared clock. */
    public Duration elapsed() { return Duration.between(start, clock.instant()); }

    public int cycles() { return cycles.get(); }

    public int changingCycles() { return changing.get(); }

    /** A step of the sandbox itself. */
    public synchronized void note(String text) {
        if (stopped) return;
        out.println(stamp() + "-- " + text);
        out.flush();
    }

    /** A milestone: the cluster reached a state the sandbox was waiting for. */
    public synchronized void milestone(String text) {
        if (stopped) return;
        out.println(stamp() + "== " + text);
        out.flush();
    }

    @Override
    public void cycleRecorded(Primary primary, CycleReport report) {
        if (stopped) return;
        String stamp = stamp();
        try {
            cycles.incrementAndGet();
            ObjectRef ref = primary.getRef();
            Seen after = reader.apply(ref);
            List<AppliedAction> changed = report.applied().stream().filter(AppliedAction::changedSomething).toList();
            if (!changed.isEmpty() || report.failure() != null) {
                if (!changed.isEmpty()) changing.incrementAndGet();
                print(stamp, ref, after.primary(), changed, report);
            }
            changed.forEach(applied -> {
                ObjectRef target = applied.planned().action().getTarget();
                if (target != null) touched.add(key(target));
            });
            seen = after.recordedBy(report);
        } catch (RuntimeException e) {
            // A listener must not throw: the timeline misses an entry, the operator goes on.
            if (!stopped) {
                synchronized (this) {
                    out.println(stamp + "(timeline: " + e.getMessage() + ")");
                }
            }
        }
    }

    private void print(String stamp, ObjectRef ref, Map<String, Object> now, List<AppliedAction> changed, CycleReport report) {
        StringBuilder entry = new StringBuilder(stamp).append(ref.getKind()).append(' ')
                .append(ref.getNamespace()).append('/').append(ref.getName())
                .append(now.isEmpty() ? "  gone" : "  phase=" + text(ObjectPath.read(now, "status.phase")));
        // postgres-cluster counts instances, a Deployment-like bundle replicas.
        Object ready = ObjectPath.read(now, "status.readyInstances");
        Object instances = ObjectPath.read(now, "spec.instances");
        if (ready == null && instances == null) {
            ready = ObjectPath.read(now, "status.readyReplicas");
            instances = ObjectPath.read(now, "spec.replicas");
        }
        if (ready != null || instances != null) {
            entry.append("  ready=").append(ready == null ? "0" : text(ready)).append('/').append(text(instances));
        }
        for (AppliedAction applied : changed) {
            entry.append('\n').append(INDENT).append(describe(applied.planned().action(), ref))
                    .append("  ").append(applied.outcome())
                    .append("  (").append(String.join("; ", applied.planned().rules())).append(')');
        }
        if (report.failedAction() != null) {
            entry.append('\n').append(INDENT).append(describe(report.failedAction().action(), ref)).append("  FAILED");
        }
        if (report.failure() != null) {
            entry.append('\n').append(INDENT)
                    .append(report.failure().isTemporary() ? "will retry: " : "failed: ")
                    .append(report.failure().reason()).append(": ").append(report.failure().describe());
        }
        synchronized (this) {
            if (stopped) return;
            out.println(entry);
            out.flush();
        }
    }

    private String stamp() {
        Duration elapsed = elapsed();
        String seconds = String.format(Locale.ROOT, "+%.1fs", elapsed.toMillis() / 1000.0);
        return String.format(Locale.ROOT, "%-8s", seconds);
    }

    /** An action as one short phrase: the target is left out when it is the primary. */
    static String describe(Action action, ObjectRef primary) {
        ObjectRef target = action.getTarget();
        String on = target == null || same(target, primary) ? "" : " " + target;
        if (action instanceof SetStatus s) {
            return "setStatus" + on + " " + s.getPath() + "=" + value(s.getValue());
        }
        if (action instanceof SetCondition c) {
            return "setCondition" + on + " " + c.getConditionType() + "=" + c.getStatus() + " " + c.getReason();
        }
        if (action instanceof SetMetadataEntry m) {
            return m.getType() + on + " " + m.getKey() + "=" + value(m.getValue());
        }
        if (action instanceof EmitEvent e) {
            return "event" + on + " " + e.getEventType() + " " + e.getReason() + ": " + e.getMessage();
        }
        return action.identity();
    }

    private static boolean same(ObjectRef a, ObjectRef b) {
        return a.getKind().equals(b.getKind()) && a.getNamespace().equals(b.getNamespace()) && a.getName().equals(b.getName());
    }

    private static String value(Object value) {
        return value == null ? "(removed)" : String.valueOf(value);
    }

    static String text(Object value) {
        if (value == null) return "-";
        if (value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())) return String.valueOf(n.longValue());
        return String.valueOf(value);
    }
}
