package dev.runbook.operator.reload;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds a cycle in the middle of its rules: a test bundle's rule calls {@link #pass} in a condition,
 * and the cycle of the primary the gate is armed for waits there until the test opens the gate. So a
 * test can swap the bundle while a cycle is known to be in flight.
 */
public final class CycleGate {
    private static volatile String armedFor;
    private static volatile CountDownLatch entered = new CountDownLatch(1);
    private static volatile CountDownLatch open = new CountDownLatch(1);
    /**
     * How long the test waits for a cycle to reach the gate, and a held cycle for the test to open it: the
     * test ships a bundle and awaits its acceptance meanwhile, for up to TestCluster.CONVERGE (60 s).
     */
    private static final Duration WAIT = Duration.ofMinutes(2);

    private CycleGate() {}

    /** The next cycle of {@code name} will wait in its rules until {@link #open()}. */
    public static void arm(String name) {
        entered = new CountDownLatch(1);
        open = new CountDownLatch(1);
        armedFor = name;
    }

    /** Waits until an armed cycle is held at the gate. */
    public static boolean awaitHeld() throws InterruptedException {
        return entered.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    public static void open() {
        armedFor = null;
        open.countDown();
    }

    /** Called from the rules: true, after waiting at the gate if it is armed for this primary. */
    public static boolean pass(String name) {
        if (!name.equals(armedFor)) return true;
        entered.countDown();
        try {
            if (!open.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) throw new IllegalStateException("the test never opened the gate");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return true;
    }
}
