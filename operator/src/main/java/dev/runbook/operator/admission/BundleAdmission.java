package dev.runbook.operator.admission;

import dev.runbook.operator.concurrent.DaemonThreads;
import dev.runbook.operator.controller.BundleRefusedException;
import dev.runbook.operator.reload.BundleReloader;
import dev.runbook.operator.reload.BundleVetting;
import dev.runbook.operator.reload.ContentVetting;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The webhook's decision on a bundle ConfigMap: the same check the operator runs before it accepts one
 * ({@link BundleVetting}: it compiles, every scenario passes), within a time budget under the webhook's
 * timeout. A bundle that fails is denied, so {@code kubectl apply} fails with what failed. When the check
 * does not finish in the budget the ConfigMap is allowed with a warning: the operator's own check, which
 * has no deadline, still decides whether the bundle runs (docs/shipping.md#refusal-at-apply-time-the-admission-webhook).
 */
public final class BundleAdmission implements AutoCloseable {
    /** What to answer: allowed or not, the message of a denial, warnings kubectl prints. */
    public record Verdict(boolean allowed, String message, List<String> warnings) {}

    private final Duration budget;
    private final ContentVetting vetting;
    // Two checks at once at most; what waits past its budget is allowed with a warning.
    private final ExecutorService checks = Executors.newFixedThreadPool(2, DaemonThreads.named("runbook-admission"));

    public BundleAdmission(Duration budget) {
        this(budget, dev.runbook.engine.policy.Policy.DEFAULT);
    }

    /** @param policy the administrator's policy, the same one reloads are vetted under */
    public BundleAdmission(Duration budget, dev.runbook.engine.policy.Policy policy) {
        this(budget, new BundleVetting(policy));
    }

    /**
     * @param vetting the operator's own ({@link dev.runbook.operator.reload.SharedVerdicts}, shared with its
     *                reloader), so that a bundle the webhook vetted is not vetted again when it is reloaded
     */
    public BundleAdmission(Duration budget, ContentVetting vetting) {
        this.budget = budget;
        this.vetting = vetting;
    }

    /** Reviews the data of ConfigMap {@code namespace/name}. */
    public Verdict review(String namespace, String name, Map<String, String> data) {
        String source = BundleReloader.source(namespace, name);
        CompletableFuture<Integer> check = CompletableFuture.supplyAsync(() -> vetting.vetData(source, data).scenarios(), checks);
        try {
            int scenarios = check.get(budget.toMillis(), TimeUnit.MILLISECONDS);
            return new Verdict(true, "bundle compiles and its " + scenarios + " scenarios pass", List.of());
        } catch (TimeoutException e) {
            return new Verdict(true, "", List.of("runbook: the bundle's check did not finish within " + budget.toSeconds()
                    + "s; the operator finishes it before it runs the bundle: see `kubectl get events --field-selector "
                    + "involvedObject.name=" + name + "`"));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof BundleRefusedException refusal) {
                // kubectl prints all of it: the cause first, and no more than a screen.
                return new Verdict(false, refusal.brief("the bundle that runs now keeps running",
                        "`runbook lint DIR` and `runbook test DIR` show them all"), List.of());
            }
            return new Verdict(true, "", List.of("runbook: the bundle could not be checked (" + e.getCause()
                    + "); the operator checks it before it runs it"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Verdict(true, "", List.of("runbook: the check was interrupted; the operator checks it before it runs it"));
        }
    }

    @Override
    public void close() {
        checks.shutdownNow();
    }
}
