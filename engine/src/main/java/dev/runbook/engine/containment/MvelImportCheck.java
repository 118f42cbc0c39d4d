package dev.runbook.engine.containment;

import dev.runbook.engine.problem.Problem;
import org.drools.base.definitions.InternalKnowledgePackage;
import org.drools.base.rule.Function;
import org.drools.mvel.MVELDialectRuntimeData;
import org.kie.api.definition.KiePackage;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks, in each package Drools compiled, the table of names MVEL resolves a condition's, a
 * {@code from}'s, an attribute's or a declared default's names against: the package's classes and
 * the methods imported with {@code import function} or {@code import static}. A name there reaches
 * its class or method from any MVEL expression of the package, however the expression is written
 * (a bare {@code setProperty(...)} calls {@code System.setProperty} once it is imported), so each
 * entry must be on the allow-list. Reads the table Drools built for MVEL, not the DRL text; runs
 * after the build and before any KieBase exists, when no MVEL of the bundle has been evaluated.
 */
final class MvelImportCheck {
    private static final Pattern IMPORT_LINE = Pattern.compile("(?m)^[ \\t]*import\\b[^\\n]*");

    private MvelImportCheck() {}

    static List<Problem> check(Collection<KiePackage> packages, Map<String, String> drl, AllowList allowList) {
        List<Problem> problems = new ArrayList<>();
        for (KiePackage kiePackage : packages) {
            InternalKnowledgePackage pkg = (InternalKnowledgePackage) kiePackage;
            Set<String> own = ownClasses(pkg);
            if (pkg.getDialectRuntimeRegistry().getDialectData("mvel") instanceof MVELDialectRuntimeData mvel) {
                mvel.getImports().forEach((name, target) -> {
                    String refused = refusal(name, target, own, allowList);
                    if (refused != null) problems.add(locate(drl, name, refused));
                });
            }
            for (String staticImport : pkg.getStaticImports()) {
                int dot = staticImport.lastIndexOf('.');
                String className = staticImport.substring(0, dot);
                String member = staticImport.substring(dot + 1);
                if (own.contains(className) || member.equals("*") && allowList.permitsClass(className)) continue;
                if (!member.equals("*") && allowList.permitsMember(className, member)) continue;
                problems.add(locate(drl, member, notAllowed(className + "." + member)));
            }
        }
        return problems.stream().distinct().toList();
    }

    /** Why MVEL may not resolve {@code name} to {@code target}, or null when it may. */
    private static String refusal(String name, Object target, Set<String> own, AllowList allowList) {
        String className;
        String member = null;
        if (target instanceof Class<?> type) {
            className = type.getName();
        } else if (target instanceof Method method) {
            className = method.getDeclaringClass().getName();
            member = method.getName();
        } else if (target instanceof String text && text.startsWith("m:")) {
            className = text.substring(2);
            member = name;
        } else if (target instanceof String text) {
            className = text;
        } else {
            return "the import " + name + " (" + target + ") is not allowed in rules: MVEL would resolve the name to "
                    + "something the allow-list cannot check";
        }
        if (own.contains(className)) return null;
        if (member == null) {
            return allowList.permitsType(className) ? null : notAllowed(className);
        }
        return allowList.permitsMember(className, member) ? null : notAllowed(className + "." + member);
    }

    private static String notAllowed(String what) {
        return what + " is not allowed in rules: imported, so that conditions could name it, and not on the allow-list "
                + "(see docs/security.md for what rules may call)";
    }

    /** The package's own classes: its DRL functions and declared types (their code is checked as bytecode). */
    private static Set<String> ownClasses(InternalKnowledgePackage pkg) {
        Set<String> own = new HashSet<>();
        for (Function function : pkg.getFunctions().values()) own.add(function.getClassName());
        pkg.getTypeDeclarations().values().forEach(type -> {
            if (type.getTypeClassName() != null) own.add(type.getTypeClassName());
        });
        return own;
    }

    /** The import line that names {@code name}, else the file as a whole. */
    private static Problem locate(Map<String, String> drl, String name, String message) {
        Pattern named = Pattern.compile("[.\\s]" + Pattern.quote(name) + "\\s*;?\\s*$");
        for (String file : drl.keySet().stream().sorted().toList()) {
            String text = drl.get(file);
            Matcher line = IMPORT_LINE.matcher(text);
            while (line.find()) {
                if (!named.matcher(line.group()).find()) continue;
                int lineNumber = (int) text.substring(0, line.start()).chars().filter(c -> c == '\n').count() + 1;
                int column = line.group().indexOf("import") + 1;
                return new Problem(file, lineNumber, column, message);
            }
        }
        return Problem.inFile("rules/", message);
    }
}
