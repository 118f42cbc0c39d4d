package dev.runbook.testkit.explore.fault;

import dev.runbook.testkit.explore.Drawn;
import dev.runbook.testkit.explore.Fault;
import dev.runbook.testkit.explore.Pick;
import dev.runbook.testkit.explore.World;
import dev.runbook.testkit.explore.schema.SpecField;
import dev.runbook.testkit.explore.schema.SpecValues;

import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * The user edits the primary's spec: one field drawn from its CRD's schema (SpecFields), set to a value
 * the API server accepts (SpecValues) or removed, at whatever moment the run is in (a failover, a
 * switchover, a backup, an upgrade). No field is listed by hand: a field added to the CRD is explored.
 */
public final class SpecEdit implements Fault {
    private final String kind;
    private final List<SpecField> fields;

    public SpecEdit(String kind, List<SpecField> fields) {
        this.kind = kind;
        this.fields = List.copyOf(fields);
    }

    @Override public String name() { return "the user edits the spec"; }

    public List<SpecField> fields() { return fields; }

    /** {@code spec.backup} for {@code spec.backup.retention.count}. */
    private static String top(SpecField field) {
        String[] steps = field.path().split("\\.");
        return steps.length > 1 ? steps[0] + "." + steps[1] : field.path();
    }

    /**
     * A top-level field of the spec first, each as likely as the others (spec.paused as much as all of
     * spec.backup's), then one field under it: a nested object's many fields do not crowd out the
     * top-level requests.
     */
    @Override
    public Optional<Drawn> draw(World world, RandomGenerator random) {
        List<String> tops = fields.stream().map(SpecEdit::top).distinct().toList();
        Optional<String> top = Pick.one(tops, random);
        if (top.isEmpty()) return Optional.empty();
        Optional<SpecField> field = Pick.one(fields.stream().filter(f -> top(f).equals(top.get())).toList(), random);
        if (field.isEmpty()) return Optional.empty();
        return SpecValues.draw(field.get(), world, random).map(value -> {
            Object written = value == SpecValues.REMOVE ? null : value;
            return Drawn.of("the user sets " + field.get().path() + " to " + (written == null ? "nothing" : written),
                    Drawn.set(kind, world.primary().getName(), field.get().path(), written));
        });
    }
}
