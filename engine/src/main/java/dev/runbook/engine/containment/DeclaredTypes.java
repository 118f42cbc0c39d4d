package dev.runbook.engine.containment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The types a bundle's DRL declares ({@code declare Member ... end}, {@code declare enum Urgency
 * ... end}), with their fields' types, read from the text of every file: the member check starts
 * a chain on a fact of a declared type from these, since the classes do not exist before Drools'
 * build.
 */
final class DeclaredTypes {
    /** One declared type; {@code fields} maps a field to its type as written. */
    record Declaration(String name, boolean isEnum, Map<String, String> fields, List<String> constants, ClassNames classes) {}

    /** A declared field with its default: {@code name : Type = default @annotation}. */
    record Field(String name, String type, int defaultOffset, String defaultExpression) {}

    private static final Pattern DECLARE = Pattern.compile("(?ms)^\\s*declare\\s+(enum\\s+)?([\\w.$]+)[^\\n]*\\n(.*?)^\\s*end\\b");
    private static final Pattern FIELD = Pattern.compile("(?m)^[ \\t]*(\\w+)[ \\t]*:[ \\t]*([\\w.$]+(?:<[^>\\n]*>)?(?:\\[\\])*)"
            + "(?:[ \\t]*=[ \\t]*([^@\\n]*))?");
    private static final Pattern CONSTANT = Pattern.compile("(?:^|,)\\s*([A-Z_][\\w$]*)\\s*(?:\\([^)]*\\))?");

    private final Map<String, Declaration> declarations = new LinkedHashMap<>();

    /** @param drl the bundle's DRL files, comments blanked, with each file's class names */
    DeclaredTypes(Map<String, String> drl, Map<String, ClassNames> classNames) {
        drl.forEach((file, code) -> {
            Matcher declare = DECLARE.matcher(code);
            while (declare.find()) {
                String name = declare.group(2);
                String simple = name.substring(name.lastIndexOf('.') + 1);
                ClassNames classes = classNames.get(file);
                // declare ExistingClass @role(event): metadata for a class the engine loads, not a new type.
                if (classes.resolve(name) != null) continue;
                String body = declare.group(3);
                Map<String, String> fields = new LinkedHashMap<>();
                for (Field field : fields(body, 0)) fields.put(field.name(), field.type());
                List<String> constants = new ArrayList<>();
                if (declare.group(1) != null) {
                    int semicolon = body.indexOf(';');
                    Matcher constant = CONSTANT.matcher(semicolon < 0 ? body : body.substring(0, semicolon));
                    while (constant.find()) constants.add(constant.group(1));
                }
                declarations.put(simple, new Declaration(simple, declare.group(1) != null, fields, constants, classes));
            }
        });
    }

    /** The fields of a declare block's body, with the offset of each default from {@code base}. */
    static List<Field> fields(String body, int base) {
        List<Field> fields = new ArrayList<>();
        Matcher field = FIELD.matcher(body);
        while (field.find()) {
            String expression = field.group(3) == null ? null : field.group(3).strip();
            fields.add(new Field(field.group(1), field.group(2), field.group(3) == null ? -1 : base + field.start(3), expression));
        }
        return fields;
    }

    Declaration get(String name) {
        return declarations.get(name);
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
