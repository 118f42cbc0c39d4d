package dev.runbook.operator;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The import rules of docs/architecture.md ("What may import what"), checked on the compiled
 * production classes of the modules below the command line (the operator's test classpath holds rules,
 * engine and the test kit too). The rooms above, the sandbox and the commands, depend on the operator, so
 * Maven refuses the reverse; RuntimeClasspathTest reads what the image's class path holds.
 * A rule that matches no class fails (ArchUnit's default), so a moved package cannot make a rule pass
 * by matching nothing.
 */
class ArchitectureTest {

    private static JavaClasses production;

    @BeforeAll
    static void importProductionClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                // the engine's test kit (its -tests.jar, on this module's test classpath) is tests too
                .withImportOption(location -> !location.matches(java.util.regex.Pattern.compile(".*-tests\\.jar.*")))
                .importPackages("dev.runbook");
    }

    private static void check(ArchRule rule) {
        rule.check(production);
    }

    // ---- modules --------------------------------------------------------------------------------

    @Test
    void theVocabularyKnowsNoEngineNoOperatorNoDroolsNoKubernetesClient() {
        check(noClasses().that().resideInAPackage("dev.runbook.rules..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.runbook.engine..", "dev.runbook.testkit..",
                        "dev.runbook.operator..", "org.drools..", "org.kie..", "io.fabric8..", "io.javaoperatorsdk.."));
    }

    @Test
    void theEngineKnowsNoTestKitNoOperatorNoJosdkNoKubernetesClient() {
        check(noClasses().that().resideInAPackage("dev.runbook.engine..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.runbook.testkit..", "dev.runbook.operator..",
                        "io.javaoperatorsdk..", "io.fabric8.kubernetes.client.."));
    }

    @Test
    void theTestKitKnowsNoOperatorNoJosdkNoKubernetesClient() {
        check(noClasses().that().resideInAPackage("dev.runbook.testkit..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.runbook.operator..",
                        "io.javaoperatorsdk..", "io.fabric8.kubernetes.client.."));
    }

    /**
     * The runtime runs a bundle's scenarios and checks its invariants only to vet it before it goes live
     * (operator.reload, and the worker processes of operator.isolation): no other room of the operator uses the test kit.
     */
    @Test
    void theRuntimeReachesTheTestKitOnlyFromVetting() {
        check(noClasses().that().resideInAPackage("dev.runbook.operator..")
                .and().resideOutsideOfPackages("dev.runbook.operator.reload..", "dev.runbook.operator.isolation..")
                .should().dependOnClassesThat().resideInAPackage("dev.runbook.testkit.."));
    }

    // ---- the simulator --------------------------------------------------------------------------

    @Test
    void onlyTheSandboxAndTheScenarioKitUseTheSimulator() {
        check(noClasses().that().resideOutsideOfPackages("dev.runbook.testkit.simulation..",
                        "dev.runbook.testkit.scenario..", "dev.runbook.testkit.explore..", "dev.runbook.sandbox..")
                .should().dependOnClassesThat().resideInAPackage("dev.runbook.testkit.simulation.."));
    }

    // ---- the engine's phases --------------------------------------------------------------------

    @Test
    void whatAnActionDoesDependsOnTheVocabularyAlone() {
        check(noClasses().that().resideInAPackage("dev.runbook.engine.apply..")
                .should().dependOnClassesThat().resideOutsideOfPackages("dev.runbook.engine.apply..",
                        "dev.runbook.rules..", "java.."));
    }

    @Test
    void theSimulatedClusterBuildsOnApplyOnly() {
        check(noClasses().that().resideInAPackage("dev.runbook.testkit.simulation..")
                .should().dependOnClassesThat().resideOutsideOfPackages("dev.runbook.testkit.simulation..",
                        "dev.runbook.engine.apply..", "dev.runbook.rules..", "java.."));
    }

    @Test
    void decidingKnowsNothingOfApplyingTestingOrPresenting() {
        check(noClasses().that().resideInAnyPackage("dev.runbook.engine.decide..", "dev.runbook.engine.check..",
                        "dev.runbook.engine.compile..", "dev.runbook.engine.bundle..", "dev.runbook.engine.template..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.runbook.engine.apply..",
                        "dev.runbook.testkit.simulation..", "dev.runbook.testkit.scenario..", "dev.runbook.engine.plan..",
                        "dev.runbook.engine.state.."));
    }

    @Test
    void onlyExplorationBuildsOnTheScenarioKit() {
        check(noClasses().that().resideInAPackage("dev.runbook.testkit..")
                .and().resideOutsideOfPackages("dev.runbook.testkit.scenario..", "dev.runbook.testkit.explore..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.runbook.testkit.scenario..", "dev.runbook.testkit.explore.."));
    }

    // ---- the operator's phases ------------------------------------------------------------------

    @Test
    void thePhasesDoNotKnowWhoRunsThem() {
        check(noClasses().that().resideInAnyPackage("dev.runbook.operator.observe..", "dev.runbook.operator.act..",
                        "dev.runbook.operator.record..", "dev.runbook.operator.kube..", "dev.runbook.operator.error..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.runbook.operator.cycle..",
                        "dev.runbook.operator.controller..", "dev.runbook.operator.runtime..", "dev.runbook.operator.command..",
                        "dev.runbook.operator.reload..", "dev.runbook.operator.metrics.."));
    }

    /** The cycle runs the phases; the controller (the JOSDK wiring) runs the cycle, never the other way. */
    @Test
    void theCycleKnowsNotTheControllerThatRunsIt() {
        check(noClasses().that().resideInAPackage("dev.runbook.operator.cycle..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.runbook.operator.controller..",
                        "dev.runbook.operator.runtime..", "dev.runbook.operator.command..", "dev.runbook.operator.reload.."));
    }

    /** The phases in their order: observe, then act (which reads back its writes through observe's informers), then record. */
    @Test
    void thePhasesAreLayeredObserveActRecord() {
        check(noClasses().that().resideInAPackage("dev.runbook.operator.observe..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.runbook.operator.act..",
                        "dev.runbook.operator.record.."));
        check(noClasses().that().resideInAPackage("dev.runbook.operator.act..")
                .should().dependOnClassesThat().resideInAPackage("dev.runbook.operator.record.."));
    }

    @Test
    void theEntryPointIsTheTop() {
        check(noClasses().that().resideInAPackage("dev.runbook.operator..")
                .and().resideOutsideOfPackage("dev.runbook.operator.command..")
                .should().dependOnClassesThat().resideInAPackage("dev.runbook.operator.command.."));
    }
}
