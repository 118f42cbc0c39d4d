package dev.runbook.engine.compile;

import dev.runbook.engine.bundle.BundleSource;
import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.BundleSpecParser;
import dev.runbook.engine.containment.AllowList;
import dev.runbook.engine.containment.CodeContainment;
import dev.runbook.engine.containment.ParsedDrl;
import dev.runbook.engine.containment.RuleTreeCheck;
import dev.runbook.engine.containment.TemplateCheck;
import dev.runbook.engine.containment.FirstLine;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.engine.problem.Problem;
import dev.runbook.engine.template.TemplateRenderer;
import dev.runbook.engine.template.TemplateSet;
import org.drools.core.impl.RuleBaseFactory;
import org.drools.kiesession.rulebase.InternalKnowledgeBase;
import org.drools.kiesession.rulebase.KnowledgeBaseFactory;
import org.kie.api.definition.KiePackage;
import org.kie.api.definition.rule.Rule;
import org.kie.api.io.ResourceType;
import org.kie.internal.builder.CompositeKnowledgeBuilder;
import org.kie.internal.builder.KnowledgeBuilder;
import org.kie.internal.builder.KnowledgeBuilderConfiguration;
import org.kie.internal.builder.KnowledgeBuilderFactory;
import org.kie.internal.builder.KnowledgeBuilderResult;
import org.kie.internal.builder.ResultSeverity;
import org.kie.internal.io.ResourceFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Compiles a bundle's files into a {@link CompiledBundle}, or fails with every problem found.
 *
 * <p>Uses Drools' classic DRL compiler through a private {@link KnowledgeBuilder}: it reports DRL
 * lines for type errors (the executable model does not), compiled several times faster here, and
 * touches no global {@code KieRepository}, so concurrent compiles and hot reloads cannot see each
 * other's rules. See docs/architecture.md.
 */
public final class BundleCompiler {
    private BundleCompiler() {}

    public static CompiledBundle compile(BundleSource source) {
        BundleSpec spec = BundleSpecParser.parse(required(source, BundleSpecParser.FILE));
        Map<String, String> drl = source.filesUnder("rules/", ".drl");
        if (drl.isEmpty()) {
            throw new InvalidInputException(Problem.inFile("rules/",
                    "no .drl files: a bundle needs at least one rule file under rules/"));
        }
        List<Problem> errors = new ArrayList<>();
        List<Problem> warnings = new ArrayList<>();
        Map<String, String> templateFiles = source.filesUnder(TemplateSet.DIRECTORY, ".yaml");
        TemplateSet templates = TemplateSet.compile(templateFiles, errors);
        if (FirstLine.enabled()) {
            errors.addAll(TemplateCheck.check(templateFiles, templates.compiled(), TemplateSet.DIRECTORY, AllowList.standard(),
                    TemplateRenderer.VARIABLES, TemplateSet::isEngineNode));
        }

        InternalKnowledgeBase kieBase = knowledgeBase(drl, spec.priorities(), errors, warnings);
        if (!errors.isEmpty()) throw new InvalidInputException(ordered(errors));
        return new CompiledBundle(spec, source, source.contentHash(), kieBase, templates, ruleNames(kieBase), warnings);
    }

    /**
     * Compiles DRL files (by path) into a knowledge base, adding their problems as
     * {@code file:line:col: message} to {@code errors} and {@code warnings}; null when there were errors.
     * Also compiles a bundle's invariants (see testkit.invariant). Code outside the allow-list is an
     * error, and the code that passes is instrumented with budget checks (see engine.containment).
     */
    public static InternalKnowledgeBase knowledgeBase(Map<String, String> drl, List<Problem> errors, List<Problem> warnings) {
        return knowledgeBase(drl, Map.of(), errors, warnings);
    }

    /** As {@link #knowledgeBase(Map, List, List)}, each {@code @priority(NAME)} given the salience {@code priorities} names. */
    public static InternalKnowledgeBase knowledgeBase(Map<String, String> drl, Map<String, Integer> priorities, List<Problem> errors,
                                                      List<Problem> warnings) {
        int before = errors.size();
        List<ParsedDrl> parsed = DrlParsing.parse(drl, errors);
        if (parsed == null) return null;
        List<Problem> unnamed = PriorityLevels.assign(parsed, priorities);
        if (!unnamed.isEmpty()) {
            errors.addAll(unnamed);
            return null;
        }
        // Conditions are MVEL, interpreted, and some parts are evaluated while Drools builds: checked first, on the parse tree.
        AllowList allowList = AllowList.standard();
        boolean firstLine = FirstLine.enabled();
        List<Problem> uncontained = firstLine ? RuleTreeCheck.check(parsed, allowList) : List.of();
        if (!uncontained.isEmpty()) {
            errors.addAll(uncontained);
            return null;
        }
        KnowledgeBuilderConfiguration configuration = KnowledgeBuilderFactory.newKnowledgeBuilderConfiguration(
                null, BundleCompiler.class.getClassLoader());
        KnowledgeBuilder builder = KnowledgeBuilderFactory.newKnowledgeBuilder(configuration);
        // One batch, so that a type declared in one file is known to rules in every other file. Drools builds the
        // trees that were checked, not the text again.
        CompositeKnowledgeBuilder batch = builder.batch();
        parsed.forEach(file -> batch.add(ResourceFactory.newDescrResource(file.descr()).setSourcePath(file.file()), ResourceType.DESCR));
        batch.build();
        errors.addAll(DrlProblems.errors(builder.getResults(ResultSeverity.ERROR), drl));
        for (KnowledgeBuilderResult result : builder.getResults(ResultSeverity.WARNING)) {
            warnings.add(DrlProblems.of(result, drl));
        }
        if (errors.size() > before) return null;
        // Nothing of the bundle's code has run yet: check it, and bound it, before a KieBase defines it.
        Collection<KiePackage> packages = builder.getKnowledgePackages();
        List<Problem> refused = firstLine ? CodeContainment.check(packages, drl, allowList) : List.of();
        if (!refused.isEmpty()) {
            errors.addAll(refused);
            return null;
        }
        CodeContainment.instrument(packages);
        InternalKnowledgeBase kieBase = KnowledgeBaseFactory.newKnowledgeBase(
                CodeContainment.withoutJitting(RuleBaseFactory.newKnowledgeBaseConfiguration()));
        kieBase.addPackages(packages);
        return kieBase;
    }

    /** A compile's problems in the order a reader needs them: the cause first (see {@link DrlProblems#ordered}). */
    public static List<Problem> ordered(List<Problem> problems) {
        return DrlProblems.ordered(problems);
    }

    private static String required(BundleSource source, String path) {
        String text = source.file(path);
        if (text == null) {
            throw new InvalidInputException(Problem.inFile(path, "missing: a bundle needs a bundle.yaml"));
        }
        return text;
    }

    static List<String> ruleNames(InternalKnowledgeBase kieBase) {
        List<String> names = new ArrayList<>();
        for (KiePackage pkg : kieBase.getKiePackages()) {
            for (Rule rule : pkg.getRules()) names.add(rule.getName());
        }
        names.sort(null);
        return names;
    }
}
