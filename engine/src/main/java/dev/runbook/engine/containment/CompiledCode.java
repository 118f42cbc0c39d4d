package dev.runbook.engine.containment;

import org.drools.base.definitions.InternalKnowledgePackage;
import org.drools.base.definitions.rule.impl.RuleImpl;
import org.drools.base.rule.Function;
import org.drools.base.rule.LineMappings;
import org.drools.base.rule.TypeDeclaration;
import org.drools.core.rule.JavaDialectRuntimeData;
import org.kie.api.definition.rule.Rule;

import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The classes Drools compiled for one DRL package (consequences, {@code eval}s, functions and the
 * invokers around them), held in the package's {@link JavaDialectRuntimeData} store before any of
 * them is defined for a KieBase; and where each came from in the DRL.
 */
final class CompiledCode {
    private final InternalKnowledgePackage pkg;
    private final JavaDialectRuntimeData data;
    private Set<String> invokers;

    CompiledCode(InternalKnowledgePackage pkg) {
        this.pkg = pkg;
        this.data = (JavaDialectRuntimeData) pkg.getDialectRuntimeRegistry().getDialectData("java");
    }

    boolean isEmpty() { return data == null || data.getStore().isEmpty(); }

    /** Resource name ({@code a/b/C.class}) to bytecode, in a stable order. */
    Map<String, byte[]> classes() {
        return new LinkedHashMap<>(new java.util.TreeMap<>(data.getStore()));
    }

    /**
     * The bytecode of the package's own classes by internal name: its compiled code (consequences, evals,
     * functions, Drools' invokers) and the classes Drools generated for its declared types.
     */
    Map<String, byte[]> ownBytecode() {
        Map<String, byte[]> own = new HashMap<>();
        data.getStore().forEach((resource, bytes) -> own.put(resource.substring(0, resource.length() - ".class".length()), bytes));
        for (TypeDeclaration type : pkg.getTypeDeclarations().values()) {
            if (type.getTypeClassName() == null) continue;
            String internalName = type.getTypeClassName().replace('.', '/');
            byte[] bytes = data.getClassDefinition(internalName + ".class");
            if (bytes != null) own.put(internalName, bytes);
        }
        return own;
    }

    /**
     * Whether Drools generated the class as one of its invokers (the classes that call a rule's code from
     * Drools' runtime and hold none of the bundle's own): the classes Drools registered to wire into the
     * rules when it generated them, by their exact names. A class the bundle's code declares, whatever
     * its name, is not among them.
     */
    boolean isDroolsInvoker(String internalName) {
        return invokers().contains(internalName.replace('/', '.'));
    }

    @SuppressWarnings("unchecked")
    private Set<String> invokers() {
        if (invokers == null) {
            try {
                Field lookups = JavaDialectRuntimeData.class.getDeclaredField("invokerLookups");
                lookups.setAccessible(true);
                invokers = Set.copyOf(((Map<String, ?>) lookups.get(data)).keySet());
            } catch (ReflectiveOperationException | RuntimeException e) {
                // A Drools that keeps them elsewhere must stop the compile here, never pass a bundle's class off as its own.
                throw new IllegalStateException("the Drools in use keeps no invokerLookups in JavaDialectRuntimeData: "
                        + "the containment check cannot tell its generated invokers from a bundle's code", e);
            }
        }
        return invokers;
    }

    /** Replaces a class's bytecode; the KieBase defines classes from the store. */
    void replace(String resource, byte[] bytes) {
        data.write(resource, bytes);
    }

    /** The DRL file the class was compiled from, or null. */
    String file(String internalName, Map<String, String> drl) {
        String outer = outer(internalName);
        String simple = outer.substring(outer.lastIndexOf('/') + 1);
        for (Function f : pkg.getFunctions().values()) {
            if (!f.getClassName().equals(outer.replace('/', '.'))) continue;
            if (f.getResource() != null && f.getResource().getSourcePath() != null) return f.getResource().getSourcePath();
            Pattern declaration = Pattern.compile("(?m)^\\s*function\\s[^(]*\\b" + Pattern.quote(f.getName()) + "\\s*\\(");
            for (Map.Entry<String, String> file : drl.entrySet()) {
                if (declaration.matcher(file.getValue()).find()) return file.getKey();
            }
        }
        Rule best = null;
        for (Rule rule : pkg.getRules()) {
            String prefix = "Rule_" + legal(rule.getName());
            if (simple.startsWith(prefix) && (best == null || rule.getName().length() > best.getName().length())) best = rule;
        }
        if (best instanceof RuleImpl impl && impl.getResource() != null) return impl.getResource().getSourcePath();
        return null;
    }

    /** The DRL line of a line of the generated Java source, or 0 when Drools kept no mapping. */
    int drlLine(String internalName, int javaLine) {
        LineMappings mapping = pkg.getDialectRuntimeRegistry().getLineMappings(outer(internalName).replace('/', '.'));
        if (mapping == null || javaLine <= 0) return 0;
        return mapping.getStartLine() + javaLine - mapping.getOffset() - 1;
    }

    private static String outer(String internalName) {
        int dollar = internalName.indexOf('$');
        return dollar < 0 ? internalName : internalName.substring(0, dollar);
    }

    private static String legal(String name) {
        StringBuilder sb = new StringBuilder();
        for (char c : name.toCharArray()) sb.append(Character.isJavaIdentifierPart(c) ? c : '_');
        return sb.toString();
    }
}
