package dev.runbook.engine.decide;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.Pause;
import dev.runbook.rules.fact.Paused;
import dev.runbook.rules.fact.Resource;
import org.kie.api.runtime.rule.AgendaFilter;
import org.kie.api.runtime.rule.Match;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Keeps a paused primary's rules from acting, so that no rule needs a {@code not Paused()} guard.
 * While the primary is paused (bundle.yaml's {@code pause:}), a rule that asks for an action fires not
 * at all: none of its consequence happens, neither the action nor a fact it derives, exactly as if it
 * were guarded by hand. A rule that declares {@code @whilePaused} (reporting: status, conditions,
 * events) fires as usual. Which rules ask for an action is learnt by firing: the cycle fires to rest,
 * and when a rule without {@code @whilePaused} added an action, fires again in a clean session with
 * that rule refused, until a pass refuses no new rule. Refusals only grow, so the passes end (at most
 * one more than the bundle has rules; two or three in practice), and the outcome depends only on the
 * bundle and the observation. A primary that is not paused fires once, with no filter.
 */
final class PauseGuard implements AgendaFilter {
    private final Paused paused;
    private final Set<String> refused = new HashSet<>();
    private final Set<String> whilePaused = new HashSet<>();

    private PauseGuard(Paused paused) {
        this.paused = paused;
    }

    static PauseGuard of(BundleSpec spec, Resource primary) {
        return new PauseGuard(spec.paused(primary) ? new Paused(spec.pause().describe()) : null);
    }

    /** The fact that says the primary is paused, or null when it is not. */
    Paused pausedFact() { return paused; }

    /** The filter for the next pass: none when the primary is not paused. */
    AgendaFilter filter() { return paused == null ? null : this; }

    @Override
    public boolean accept(Match match) {
        String rule = match.getRule().getName();
        if (match.getRule().getMetaData().containsKey(Pause.WHILE_PAUSED)) whilePaused.add(rule);
        return !refused.contains(rule);
    }

    /**
     * Refuses every rule of {@code firings} that added an action without declaring {@code @whilePaused};
     * true when one was not refused yet, so the pass must be fired again without it.
     */
    boolean refusesMore(List<Firing> firings) {
        if (paused == null) return false;
        boolean more = false;
        for (Firing firing : firings) {
            if (!firing.added().isEmpty() && !whilePaused.contains(firing.rule())) more |= refused.add(firing.rule());
        }
        return more;
    }
}
