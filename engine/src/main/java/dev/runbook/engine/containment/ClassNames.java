package dev.runbook.engine.containment;

import org.mvel2.compiler.AbstractParser;

import java.util.List;

/**
 * Resolves a name as MVEL would: a fully qualified class, one of MVEL's own class names (its parser
 * knows {@code Array} as {@code java.lang.reflect.Array}, {@code List}, {@code HashMap} ... without an
 * import), an imported one, or one of {@code java.lang}. Never initialises a class.
 */
final class ClassNames {
    private final List<String> imports;
    private final ClassLoader loader;

    /** @param imports the DRL file's imports ({@code a.b.C} or {@code a.b.*}) */
    ClassNames(List<String> imports, ClassLoader loader) {
        this.imports = imports;
        this.loader = loader;
    }

    /** The binary class name {@code name} refers to, or null when it is no class. */
    String resolve(String name) {
        if (name.contains(".")) {
            String found = load(name);
            if (found != null) return found;
            // a nested class written with dots: java.util.Map.Entry
            int dot = name.lastIndexOf('.');
            return load(name.substring(0, dot) + "$" + name.substring(dot + 1));
        }
        // MVEL's parser resolves its own names before imports.
        if (AbstractParser.CLASS_LITERALS.get(name) instanceof Class<?> literal && !literal.isPrimitive()) {
            return literal.getName();
        }
        for (String imported : imports) {
            if (imported.endsWith("." + name)) return load(imported);
            if (imported.endsWith(".*")) {
                String found = load(imported.substring(0, imported.length() - 1) + name);
                if (found != null) return found;
            }
        }
        return load("java.lang." + name);
    }

    /** The class {@code name} refers to, not initialised, or null when it is no class. */
    Class<?> classOf(String name) {
        String className = resolve(name);
        if (className == null) return null;
        try {
            return Class.forName(className, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    private String load(String className) {
        try {
            return Class.forName(className, false, loader).getName();
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }
}
