package dev.runbook.engine.containment;

import dev.runbook.engine.problem.Problem;
import org.drools.base.definitions.InternalKnowledgePackage;
import org.kie.api.KieBaseConfiguration;
import org.kie.api.definition.KiePackage;
import org.kie.internal.conf.ConstraintJittingThresholdOption;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks the bytecode a bundle's DRL compiled to, and the names MVEL will resolve its conditions
 * against ({@link MvelImportCheck}), against the allow-list, then instruments the bytecode with
 * budget checks. Runs after Drools compiled the packages and before any KieBase defines their
 * classes, so no code of a bundle runs before it passed.
 */
public final class CodeContainment {
    private CodeContainment() {}

    /** Every use of something not allowed, as {@code rules/x.drl:LINE:COL: ...}; empty when all is allowed. */
    public static List<Problem> check(Collection<KiePackage> packages, Map<String, String> drl, AllowList allowList) {
        List<Problem> problems = new ArrayList<>();
        List<CompiledCode> compiled = new ArrayList<>();
        Map<String, byte[]> bytecode = new HashMap<>();
        for (KiePackage kiePackage : packages) {
            CompiledCode code = new CompiledCode((InternalKnowledgePackage) kiePackage);
            compiled.add(code);
            bytecode.putAll(code.ownBytecode());
        }
        problems.addAll(DeclaredSupertypes.check(packages, drl));
        // The bundle's classes across its packages: a function of one package is called from another's rules.
        OwnClasses own = new OwnClasses(bytecode);
        MemberOrigin origin = new MemberOrigin(CodeContainment.class.getClassLoader());
        for (CompiledCode code : compiled) {
            if (code.isEmpty()) continue;
            code.classes().forEach((resource, bytes) -> {
                String internalName = resource.substring(0, resource.length() - ".class".length());
                var check = new BytecodeCheck(allowList, own, origin, code.isDroolsInvoker(internalName));
                for (BytecodeCheck.Finding finding : check.check(bytes)) {
                    problems.add(locate(code, finding, drl));
                }
            });
        }
        // A use in bytecode names its line; an import MVEL could resolve is refused even when nothing uses it visibly.
        if (problems.isEmpty()) problems.addAll(MvelImportCheck.check(packages, drl, allowList));
        return problems.stream().distinct().toList();
    }

    /** Inserts the budget checks into every class of the packages. Call only after {@link #check} found nothing. */
    public static void instrument(Collection<KiePackage> packages) {
        for (KiePackage kiePackage : packages) {
            CompiledCode code = new CompiledCode((InternalKnowledgePackage) kiePackage);
            if (code.isEmpty()) continue;
            code.classes().forEach((resource, bytes) -> code.replace(resource, BudgetInstrumenter.instrument(bytes)));
        }
    }

    /**
     * {@code configuration}, for a bundle's KieBase: constraint jitting off. Drools' jitter, once a
     * constraint has been evaluated {@code drools.jittingThreshold} times (20 by default), evaluates
     * it once more in full, every branch, on a worker thread of its own, outside any cycle's budget
     * (a DRL function looping in a branch no cycle takes would spin there for good), then defines
     * bytecode that neither {@link BytecodeCheck} nor {@link BudgetInstrumenter} has seen. Drools
     * has no value that turns it off: a threshold of -1 is reached only when a constraint's int
     * counter wraps round, after 2^32 - 1 evaluations of that one constraint in one KieBase.
     */
    public static KieBaseConfiguration withoutJitting(KieBaseConfiguration configuration) {
        configuration.setOption(ConstraintJittingThresholdOption.get(-1));
        return configuration;
    }

    /** When Drools' class name does not say the file: the first file that uses the name at all. */
    private static String fileMentioning(Map<String, String> drl, String name) {
        return drl.entrySet().stream().filter(e -> e.getValue().contains(name)).map(Map.Entry::getKey)
                .sorted().findFirst().orElse(null);
    }

    private static Problem locate(CompiledCode code, BytecodeCheck.Finding finding, Map<String, String> drl) {
        String file = code.file(finding.className(), drl);
        int line = code.drlLine(finding.className(), finding.javaLine());
        String message = finding.member() + " is " + (finding.reason().startsWith("not on")
                ? "not allowed in rules: " + finding.reason() + " (see docs/security.md for what rules may call)"
                : "not allowed in rules: " + finding.reason());
        if (file == null) file = fileMentioning(drl, finding.near());
        if (file == null) return Problem.inFile("rules/", message);
        String source = drl.get(file);
        int[] at = source == null ? new int[] {line, 0} : SourcePosition.find(source, line, finding.near());
        return new Problem(file, at[0], at[1], message);
    }
}
