package dev.runbook.benchmarks;

import dev.runbook.rules.fact.Clock;
import dev.runbook.rules.fact.Params;
import dev.runbook.rules.fact.Resource;
import dev.runbook.engine.decide.Observation;
import org.drools.kiesession.rulebase.InternalKnowledgeBase;
import org.drools.kiesession.rulebase.KnowledgeBaseFactory;
import org.drools.model.codegen.ExecutableModelProject;
import org.kie.api.KieBase;
import org.kie.api.KieServices;
import org.kie.api.builder.KieBuilder;
import org.kie.api.builder.KieFileSystem;
import org.kie.api.builder.Message;
import org.kie.api.builder.ReleaseId;
import org.kie.api.io.ResourceType;
import org.kie.api.runtime.KieContainer;
import org.kie.api.runtime.KieSession;
import org.kie.internal.builder.CompositeKnowledgeBuilder;
import org.kie.internal.builder.KnowledgeBuilder;
import org.kie.internal.builder.KnowledgeBuilderFactory;
import org.kie.internal.builder.KnowledgeBuilderResult;
import org.kie.internal.builder.ResultSeverity;
import org.kie.internal.io.ResourceFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The two ways Drools 10 compiles DRL, reduced to what the comparison needs: the same DRL files in,
 * a KieBase (or the problems) out.
 *
 * <ul>
 *   <li>Classic: a private {@code KnowledgeBuilder} batch and a {@code KnowledgeBase} from its
 *       packages, as {@code BundleCompiler} does (rule constraints in MVEL, consequences in Java).
 *   <li>Executable model: a {@code KieFileSystem} built by {@code KieBuilder.buildAll(ExecutableModelProject.class)},
 *       which turns the DRL into Java source and compiles it; the KieBase comes from a
 *       {@code KieContainer}. Each build gets a unique ReleaseId and its module is removed from the
 *       global {@code KieRepository} afterwards.
 * </ul>
 */
public final class CompilePaths {
    private static final AtomicLong BUILDS = new AtomicLong();

    private CompilePaths() {}

    /** A problem as a compile path reports it: where, and what. Line and column are as Drools gives them. */
    public record Reported(String path, int line, int column, String message) {}

    /** A compiled KieBase and, for the executable model, the container that owns its classes. */
    public record Built(KieBase kieBase, KieContainer container, List<Reported> errors) implements AutoCloseable {
        @Override
        public void close() {
            if (container != null) container.dispose();
        }
    }

    public static Built classic(Map<String, String> drl) {
        KnowledgeBuilder builder = KnowledgeBuilderFactory.newKnowledgeBuilder(
                KnowledgeBuilderFactory.newKnowledgeBuilderConfiguration(null, CompilePaths.class.getClassLoader()));
        CompositeKnowledgeBuilder batch = builder.batch();
        drl.forEach((path, text) -> batch.add(
                ResourceFactory.newByteArrayResource(text.getBytes(StandardCharsets.UTF_8)).setSourcePath(path),
                ResourceType.DRL));
        batch.build();
        List<Reported> errors = new ArrayList<>();
        for (KnowledgeBuilderResult r : builder.getResults(ResultSeverity.ERROR)) {
            String path = r.getResource() == null ? null : r.getResource().getSourcePath();
            int line = r.getLines() == null || r.getLines().length == 0 ? -1 : r.getLines()[0];
            int column = r instanceof org.drools.drl.parser.ParserError p ? p.getCol() : -1;
            errors.add(new Reported(path, line, column, r.getMessage()));
        }
        if (!errors.isEmpty()) return new Built(null, null, errors);
        InternalKnowledgeBase kieBase = KnowledgeBaseFactory.newKnowledgeBase();
        kieBase.addPackages(builder.getKnowledgePackages());
        return new Built(kieBase, null, List.of());
    }

    public static Built executableModel(Map<String, String> drl) {
        KieServices ks = KieServices.get();
        ReleaseId id = ks.newReleaseId("dev.runbook.bench", "exec-model-" + BUILDS.incrementAndGet(), "1.0.0");
        KieFileSystem kfs = ks.newKieFileSystem();
        kfs.generateAndWritePomXML(id);
        // The DRL under its package directory, as a KJAR would have it (rules/x.drl -> bench/x.drl).
        drl.forEach((path, text) -> kfs.write("src/main/resources/" + GeneratedBundle.PACKAGE + "/"
                + path.substring(path.lastIndexOf('/') + 1), text));
        try {
            KieBuilder builder = ks.newKieBuilder(kfs).buildAll(ExecutableModelProject.class);
            List<Reported> errors = new ArrayList<>();
            for (Message m : builder.getResults().getMessages(Message.Level.ERROR)) {
                errors.add(new Reported(m.getPath(), m.getLine(), m.getColumn(), m.getText()));
            }
            if (!errors.isEmpty()) return new Built(null, null, errors);
            KieContainer container = ks.newKieContainer(id);
            return new Built(container.getKieBase(), container, List.of());
        } finally {
            ks.getRepository().removeKieModule(id);
        }
    }

    /** A bare cycle: a fresh session, the clock, parameters, primary and objects inserted, all rules fired. */
    public static int cycle(KieBase kieBase, Observation observation, Params params) {
        KieSession session = kieBase.newKieSession();
        try {
            session.insert(new Clock(observation.now()));
            session.insert(params);
            session.insert(observation.primary());
            observation.secondaries().stream().sorted(Comparator.comparing(Resource::getRef)).forEach(session::insert);
            return session.fireAllRules(100_000);
        } finally {
            session.dispose();
        }
    }
}
