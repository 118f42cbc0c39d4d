package dev.runbook.operator.reload;

import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.controller.BundleRefusedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * One verdict per content: the same ConfigMap content under the same policy, limits and engine is vetted
 * once, however many ask (at once or one after the other); what it depends on changing is another verdict.
 */
class SharedVerdictsTest {
    static final String SOURCE = "configmap/runbook-system/runbook-bundle-greeter";
    static final Map<String, String> CONTENT = Map.of("bundle.yaml", "name: greeter\n");

    /** Vetting that counts its calls and answers what it is told to. */
    static final class Counting implements ContentVetting {
        final AtomicInteger calls = new AtomicInteger();
        volatile CountDownLatch hold = new CountDownLatch(0);
        volatile RuntimeException failure;

        @Override
        public BundleVetting.Vetted vetData(String source, Map<String, String> data) {
            calls.incrementAndGet();
            try {
                hold.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (failure != null) throw failure;
            return new BundleVetting.Vetted(null, calls.get());
        }
    }

    final Counting vetting = new Counting();
    final SharedVerdicts verdicts = new SharedVerdicts(vetting, Policy.DEFAULT);

    @AfterEach
    void clearOverride() {
        System.clearProperty("runbook.cycleDeadline");
    }

    @Test
    void theSameContentAskedTwiceIsVettedOnce() {
        BundleVetting.Vetted first = verdicts.vetData(SOURCE, CONTENT);
        BundleVetting.Vetted second = verdicts.vetData(SOURCE, Map.copyOf(CONTENT));

        assertThat(second).isSameAs(first);
        assertThat(vetting.calls).hasValue(1);
        assertThat(verdicts.computed()).isEqualTo(1);
    }

    @Test
    void aCallerThatAsksWhileTheContentIsBeingVettedWaitsForThatVerdict() {
        vetting.hold = new CountDownLatch(1);
        CompletableFuture<BundleVetting.Vetted> review = CompletableFuture.supplyAsync(() -> verdicts.vetData(SOURCE, CONTENT));
        await().until(() -> vetting.calls.get() == 1);
        CompletableFuture<BundleVetting.Vetted> reload = CompletableFuture.supplyAsync(() -> verdicts.vetData(SOURCE, CONTENT));

        vetting.hold.countDown();

        assertThat(reload.join()).isSameAs(review.join());
        assertThat(vetting.calls).hasValue(1);
    }

    @Test
    void aRefusalIsAVerdictToo() {
        vetting.failure = new BundleRefusedException(SOURCE + ": refused: the bundle does not compile");

        var first = catchThrowableOfType(BundleRefusedException.class, () -> verdicts.vetData(SOURCE, CONTENT));
        var second = catchThrowableOfType(BundleRefusedException.class, () -> verdicts.vetData(SOURCE, CONTENT));

        assertThat(second).isSameAs(first);
        assertThat(vetting.calls).hasValue(1);
    }

    @Test
    void aFailureThatIsNoRefusalIsNotKept() {
        vetting.failure = new IllegalStateException("no temporary directory");
        catchThrowableOfType(IllegalStateException.class, () -> verdicts.vetData(SOURCE, CONTENT));
        vetting.failure = null;

        assertThat(verdicts.vetData(SOURCE, CONTENT).scenarios()).isEqualTo(2);
        assertThat(vetting.calls).hasValue(2);
    }

    @Test
    void anotherContentAnotherConfigMapOrOtherLimitsAreAnotherVerdict() {
        verdicts.vetData(SOURCE, CONTENT);
        verdicts.vetData(SOURCE, Map.of("bundle.yaml", "name: greeter\nversion: 2.0.0\n"));
        verdicts.vetData("configmap/runbook-system/another", CONTENT);
        // An administrator's override of a limit applies to the next vetting, so the verdict before it does not hold.
        System.setProperty("runbook.cycleDeadline", "2s");
        verdicts.vetData(SOURCE, CONTENT);

        assertThat(vetting.calls).hasValue(4);
    }

    @Test
    void onlyTheNewestFewVerdictsAreKept() {
        for (int i = 0; i <= SharedVerdicts.KEPT; i++) verdicts.vetData(SOURCE, Map.of("bundle.yaml", "name: v" + i + "\n"));

        verdicts.vetData(SOURCE, Map.of("bundle.yaml", "name: v0\n"));

        assertThat(vetting.calls).hasValue(SharedVerdicts.KEPT + 2);
    }
}
