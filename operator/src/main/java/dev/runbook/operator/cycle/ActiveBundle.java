package dev.runbook.operator.cycle;

import dev.runbook.engine.decide.DecidingBundle;
import dev.runbook.operator.observe.Observer;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The bundle a controller runs now, replaced whole by a reload. A cycle takes {@link #current()} once,
 * at its start, and uses only that for the rest of its run: a swap during a cycle lets the cycle finish
 * on the bundle it started with, and the next cycle starts on the new one. Nothing ever sees a bundle
 * half loaded, because a bundle is compiled and checked before it gets here, and the swap is one
 * reference.
 */
public final class ActiveBundle {
    /** One loaded bundle, its observer, and its generation: 1 for the first, one more per swap. */
    public record Loaded(DecidingBundle bundle, Observer observer, long generation) {}

    private final AtomicReference<Loaded> current;

    public ActiveBundle(DecidingBundle bundle) {
        this(bundle, 1);
    }

    private ActiveBundle(DecidingBundle bundle, long generation) {
        current = new AtomicReference<>(new Loaded(bundle, new Observer(bundle.spec()), generation));
    }

    /** A new holder for {@code bundle} counting on from this one's generation: for a rebuilt controller. */
    public ActiveBundle successor(DecidingBundle bundle) {
        return new ActiveBundle(bundle, current().generation() + 1);
    }

    public Loaded current() { return current.get(); }

    /** Makes {@code bundle} the one the next cycles run; returns what it became. */
    public Loaded swap(DecidingBundle bundle) {
        Observer observer = new Observer(bundle.spec());
        return current.updateAndGet(previous -> new Loaded(bundle, observer, previous.generation() + 1));
    }
}
