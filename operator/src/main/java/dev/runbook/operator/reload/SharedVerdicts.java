package dev.runbook.operator.reload;

import dev.runbook.engine.compile.CompiledBundleCache;
import dev.runbook.engine.containment.ContainmentLimits;
import dev.runbook.engine.policy.Policy;
import dev.runbook.operator.controller.BundleRefusedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One verdict per content: the webhook and the reloader ask the same question about one ConfigMap
 * (first the API server's review, then the change it let through), and ask it through this layer around
 * the one {@link ContentVetting} call, so a bundle shipped once is vetted once in the operator. A verdict
 * holds for exactly what it was computed from: the ConfigMap (its name appears in the messages and the
 * bundle's origin), the hash of its data, the policy and the limits rules ran under, and the engine
 * build. A caller that asks while another is vetting the same content waits for that verdict instead of
 * vetting again (a review that outlasted its budget goes on, and the reload takes its result).
 *
 * <p>Only this process's own verdicts are kept: a verdict computed by {@code runbook pack} on an
 * author's machine is never trusted (docs/security.md, "Vetting"). An accepted verdict holds its
 * compiled bundle, so few are kept ({@value #KEPT}, the least recently asked for go first); a failure
 * that is not a refusal (an I/O error, say) is no verdict and is not kept.
 */
public final class SharedVerdicts implements ContentVetting {
    private static final Logger LOG = LoggerFactory.getLogger(SharedVerdicts.class);
    /** Verdicts kept: the newest few contents, enough for a review and its reload, and a few retries. */
    static final int KEPT = 4;

    /** What a verdict depends on. */
    private record Key(String source, String content, Policy policy, ContainmentLimits limits, String engine) {}

    private final ContentVetting vetting;
    private final Policy policy;
    private final String engine = CompiledBundleCache.engineBuild();
    private final AtomicInteger computed = new AtomicInteger();
    /** In the order last asked for; guarded by itself. */
    private final Map<Key, CompletableFuture<BundleVetting.Vetted>> verdicts = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, CompletableFuture<BundleVetting.Vetted>> eldest) {
            return size() > KEPT;
        }
    };

    /** Around vetting in this process, under its policy. */
    public SharedVerdicts(BundleVetting vetting) {
        this(vetting, vetting.policy());
    }

    /** @param policy the policy {@code vetting} vets under: a verdict holds for that policy (and its limits) only */
    public SharedVerdicts(ContentVetting vetting, Policy policy) {
        this.vetting = vetting;
        this.policy = policy;
    }

    @Override
    public BundleVetting.Vetted vetData(String source, Map<String, String> data) {
        // The limits as they are now: an administrator's override set since changes the verdict.
        Key key = new Key(source, BundleReloader.contentHash(data), policy, policy.containment(), engine);
        CompletableFuture<BundleVetting.Vetted> mine = new CompletableFuture<>();
        CompletableFuture<BundleVetting.Vetted> shared;
        synchronized (verdicts) {
            shared = verdicts.putIfAbsent(key, mine);
        }
        if (shared == null) return vetHere(key, mine, source, data);
        try {
            // Not interruptible, as vetting itself is not: the vetting thread always completes the future.
            BundleVetting.Vetted verdict = shared.join();
            LOG.debug("{}: content {} was vetted already: shared verdict", source, key.content());
            return verdict;
        } catch (CompletionException e) {
            if (e.getCause() instanceof BundleRefusedException refusal) throw refusal;
            // The other vetting broke down without a verdict: vet here, as if alone.
            return vetting.vetData(source, data);
        }
    }

    private BundleVetting.Vetted vetHere(Key key, CompletableFuture<BundleVetting.Vetted> mine, String source,
                                         Map<String, String> data) {
        computed.incrementAndGet();
        try {
            BundleVetting.Vetted vetted = vetting.vetData(source, data);
            mine.complete(vetted);
            return vetted;
        } catch (BundleRefusedException refusal) {
            mine.completeExceptionally(refusal);
            throw refusal;
        } catch (RuntimeException | Error e) {
            synchronized (verdicts) {
                verdicts.remove(key, mine);
            }
            mine.completeExceptionally(e);
            throw e;
        }
    }

    /** How many times a content was really vetted (not shared): what a ship costs the operator. */
    public int computed() {
        return computed.get();
    }
}
