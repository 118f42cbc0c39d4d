package dev.runbook.engine.explain;

import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.compile.CompiledBundle;
import dev.runbook.engine.decide.Decision;
import dev.runbook.engine.decide.DecisionCycle;
import dev.runbook.engine.decide.Firing;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.policy.Policy;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import org.drools.kiesession.rulebase.InternalKnowledgeBase;
import org.kie.api.runtime.rule.QueryResults;
import org.kie.api.runtime.rule.QueryResultsRow;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Explains why a rule did or did not fire on an observation: when it fired, the facts each firing
 * matched; when it did not, its conditions re-evaluated by Drools one constraint more at a time
 * ({@link ConditionQueries}) on a session run to rest exactly as the cycle's, up to the first that no
 * fact meets, with the facts it was tested against and the values its operands had for them
 * ({@link OperandValues}). What this cannot tell is in docs/why.md.
 *
 * <p>The queries are one more rules file of a copy of the bundle, compiled as any bundle is: the same
 * checks of what the code may call, the same budgets, nothing added to the bundle that runs.
 */
public final class WhyNot {
    /** The facts shown for a condition that stopped the rule; the rest are counted. */
    static final int SHOWN_FACTS = 5;
    private static final String QUERIES_FILE = "rules/why-queries.drl";

    private WhyNot() {}

    /**
     * @param decision the decision the rules made on {@code observation}: says whether the rule fired
     * @param compiler  compiles a bundle's files (the command line's goes through the compiled-bundle cache)
     * @throws InvalidInputException when the bundle has no rule of that name (naming those it has that are alike)
     */
    public static Explanation explain(CompiledBundle bundle, Observation observation, Policy policy, String ruleName,
                                      Decision decision, Function<BundleSource, CompiledBundle> compiler) {
        Map<String, String> drl = bundle.source().filesUnder("rules/", ".drl");
        ParsedRule rule = RuleConditions.find(drl, ruleName).orElseThrow(() -> unknownRule(bundle, ruleName));
        List<List<String>> firings = decision.firings().stream().filter(f -> f.rule().equals(rule.name()))
                .map(Firing::matched).toList();
        if (!firings.isEmpty()) {
            return new Explanation(rule.name(), rule.where(), firings, "fired " + firings.size() + " time"
                    + (firings.size() == 1 ? "" : "s") + " in this decision", List.of(), List.of());
        }
        List<ConditionQueries.Query> queries = ConditionQueries.of(rule);
        CompiledBundle probe = withQueries(bundle, ConditionQueries.drl(rule, queries), compiler);
        Map<String, Rows> answers = DecisionCycle.atRest(probe, observation, policy, session -> {
            Map<String, Rows> rows = new HashMap<>();
            for (ConditionQueries.Query query : queries) rows.put(query.name(), Rows.of(session.getQueryResults(query.name())));
            return rows;
        });
        OperandValues values = new OperandValues(rule.imports(), ((InternalKnowledgeBase) probe.kieBase()).getRootClassLoader());
        return new Walk(rule, queries, answers, values).explanation();
    }

    private static InvalidInputException unknownRule(CompiledBundle bundle, String name) {
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        List<String> alike = bundle.ruleNames().stream().filter(n -> n.toLowerCase(java.util.Locale.ROOT).contains(lower)).limit(5).toList();
        return new InvalidInputException(Problem.inFile("--rule", "bundle " + bundle + " has no rule named '" + name + "'"
                + (alike.isEmpty() ? ": `runbook lint` lists its rules" : "; rules whose names contain it: '" + String.join("', '", alike) + "'")));
    }

    /**
     * The bundle with the queries as one more rules file, compiled as any bundle is (first-line checks,
     * the build, the bytecode checks and budgets): the bundle that runs is left as it is.
     */
    private static CompiledBundle withQueries(CompiledBundle bundle, String queries, Function<BundleSource, CompiledBundle> compiler) {
        Map<String, String> files = new LinkedHashMap<>(bundle.source().files());
        files.put(QUERIES_FILE, queries);
        try {
            return compiler.apply(new BundleSource(bundle.source().origin(), files));
        } catch (InvalidInputException e) {
            throw new IllegalStateException("the rule's conditions could not be re-evaluated as queries: "
                    + String.join("; ", e.getProblems().stream().map(Problem::toString).toList()) + "\n" + queries, e);
        }
    }

    /** A query's answer: how many rows, and the first few, each as its variables' values. */
    record Rows(int count, List<Map<String, Object>> first) {
        static Rows of(QueryResults results) {
            List<Map<String, Object>> first = new ArrayList<>();
            for (QueryResultsRow row : results) {
                if (first.size() == SHOWN_FACTS) break;
                Map<String, Object> values = new LinkedHashMap<>();
                for (String identifier : results.getIdentifiers()) values.put(identifier, row.get(identifier));
                first.add(values);
            }
            return new Rows(results.size(), first);
        }
    }
}
