package dev.runbook.engine.containment;

import dev.runbook.engine.problem.Problem;
import org.drools.base.definitions.InternalKnowledgePackage;
import org.drools.base.factmodel.ClassDefinition;
import org.drools.base.rule.TypeDeclaration;
import org.kie.api.definition.KiePackage;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The classes Drools built for a bundle's declared types may extend only {@code Object}, {@code Enum}
 * (a declared enum) or another of the bundle's declared types, and implement only
 * {@code Serializable}: read from the built packages' class definitions, a second look after the
 * parse-tree check refused any other {@code extends}. A declared type that extended a JDK class would
 * make that class's members callable as the bundle's own ({@code Thread.sleep}, {@code TimeZone.setDefault}).
 */
final class DeclaredSupertypes {
    private static final Set<String> ROOTS = Set.of("java.lang.Object", "java.lang.Enum");
    private static final Set<String> INTERFACES = Set.of("java.io.Serializable");

    private DeclaredSupertypes() {}

    static List<Problem> check(Collection<KiePackage> packages, Map<String, String> drl) {
        Set<String> declared = new HashSet<>();
        for (KiePackage p : packages) {
            for (TypeDeclaration type : ((InternalKnowledgePackage) p).getTypeDeclarations().values()) {
                if (type.isNovel()) declared.add(type.getTypeClassName());
            }
        }
        List<Problem> problems = new ArrayList<>();
        for (KiePackage p : packages) {
            for (TypeDeclaration type : ((InternalKnowledgePackage) p).getTypeDeclarations().values()) {
                ClassDefinition definition = type.getTypeClassDef();
                if (!type.isNovel() || definition == null) continue;
                List<String> outside = new ArrayList<>();
                String superClass = definition.getSuperClass();
                if (superClass != null && !ROOTS.contains(superClass) && !declared.contains(superClass)) outside.add(superClass);
                for (String implemented : definition.getInterfaces()) {
                    if (!INTERFACES.contains(implemented) && !declared.contains(implemented)) outside.add(implemented);
                }
                for (String name : outside) problems.add(locate(drl, type.getTypeName(), name));
            }
        }
        return problems;
    }

    private static Problem locate(Map<String, String> drl, String typeName, String outside) {
        String message = "declare " + typeName + " extends " + outside + " is not allowed: a declared type may extend only "
                + "another type the bundle declares (the members of a class it extends would count as the bundle's own)";
        Pattern declare = Pattern.compile("(?m)^\\s*declare\\s+" + Pattern.quote(typeName) + "\\b");
        for (String file : drl.keySet().stream().sorted().toList()) {
            Matcher m = declare.matcher(drl.get(file));
            if (m.find()) return DescrText.at(file, drl.get(file), m.start() + m.group().indexOf("declare"), message);
        }
        return Problem.inFile("rules/", message);
    }
}
