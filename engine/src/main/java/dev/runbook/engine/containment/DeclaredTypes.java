package dev.runbook.engine.containment;

import org.drools.drl.ast.descr.AbstractClassTypeDeclarationDescr;
import org.drools.drl.ast.descr.EnumDeclarationDescr;
import org.drools.drl.ast.descr.EnumLiteralDescr;
import org.drools.drl.ast.descr.TypeFieldDescr;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The types a bundle's DRL declares ({@code declare Member ... end}, {@code declare enum Urgency
 * ... end}), with their fields' types as Drools' parser read them: the member check starts a chain
 * on a fact of a declared type from these, since the classes do not exist before Drools' build.
 */
final class DeclaredTypes {
    /** One declared type; {@code fields} maps a field to its type as written. */
    record Declaration(String name, boolean isEnum, Map<String, String> fields, List<String> constants, ClassNames classes) {}

    private final Map<String, Declaration> declarations = new LinkedHashMap<>();

    DeclaredTypes() {}

    /**
     * Adds the declarations of one file; {@code declare ExistingClass @role(event)} (metadata for a class
     * the engine loads, not a new type) is none.
     */
    void addAll(List<AbstractClassTypeDeclarationDescr> descrs, ClassNames classes) {
        for (AbstractClassTypeDeclarationDescr descr : descrs) {
            boolean isEnum = descr instanceof EnumDeclarationDescr;
            if (!isEnum && classes.resolve(descr.getTypeName()) != null) continue;
            Map<String, String> fields = new LinkedHashMap<>();
            for (TypeFieldDescr field : descr.getFields().values()) fields.put(field.getFieldName(), field.getPattern().getObjectType());
            List<String> constants = new ArrayList<>();
            if (descr instanceof EnumDeclarationDescr e) for (EnumLiteralDescr literal : e.getLiterals()) constants.add(literal.getName());
            String simple = descr.getTypeName().substring(descr.getTypeName().lastIndexOf('.') + 1);
            declarations.put(simple, new Declaration(simple, isEnum, fields, constants, classes));
        }
    }

    Declaration get(String name) {
        return declarations.get(name);
    }

    boolean declares(String name) {
        return declarations.containsKey(name.substring(name.lastIndexOf('.') + 1));
    }

    /** The type of a declared field, as the member check knows it. */
    StaticType fieldType(Declaration declaration, String field) {
        String written = declaration.fields().get(field);
        return written == null ? null : typeNamed(written, declaration.classes());
    }

    /** A type written in DRL (a field's, a global's, a function's): a primitive, a class, a declared type. */
    StaticType typeNamed(String written, ClassNames classes) {
        String raw = written.replaceAll("<.*>", "").strip();
        if (raw.endsWith("[]")) {
            StaticType element = typeNamed(raw.substring(0, raw.length() - 2), classes);
            return element instanceof StaticType.Known k ? StaticType.Known.of(k.raw().arrayType()) : new StaticType.Unknown("an array of " + raw);
        }
        Class<?> primitive = PRIMITIVES.get(raw);
        if (primitive != null) return StaticType.boxed(primitive);
        Declaration declared = declarations.get(raw.substring(raw.lastIndexOf('.') + 1));
        if (declared != null) return new StaticType.Declared(declared);
        Class<?> type = classes.classOf(raw);
        return type == null ? new StaticType.Unknown("the type " + written + ", which the engine cannot load") : StaticType.Known.of(type);
    }

    private static final Map<String, Class<?>> PRIMITIVES = Map.of("boolean", boolean.class, "byte", byte.class,
            "short", short.class, "int", int.class, "long", long.class, "float", float.class, "double", double.class,
            "char", char.class, "void", void.class);
}
