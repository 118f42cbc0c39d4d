package dev.runbook.engine.containment;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What the member check knows, before anything runs, about the value an MVEL name chain has
 * reached: a class (with its generic type, and whether its contents are observed data), a class
 * named as such (its static members), a type declared in the DRL, one of several types, or nothing.
 */
sealed interface StaticType {
    /** An instance of {@code raw}; {@code frozen}: a container (or Object) of the vocabulary's observed data. */
    record Known(Class<?> raw, Type generic, boolean frozen) implements StaticType {
        static Known of(Class<?> raw) { return new Known(raw, raw, false); }
    }

    /** A class named in the expression ({@code Math}, {@code java.time.DayOfWeek}): its static members. */
    record ClassRef(Class<?> raw) implements StaticType {}

    /** An instance of a type declared in the bundle's DRL. */
    record Declared(DeclaredTypes.Declaration declaration) implements StaticType {}

    /** A type declared in the bundle's DRL, named as such: an enum's constants. */
    record DeclaredRef(DeclaredTypes.Declaration declaration) implements StaticType {}

    /** Any one of {@code members}: a member must be checked on each that has it. */
    record Union(List<StaticType> members) implements StaticType {}

    /** Nothing is known: no member may be reached from here. */
    record Unknown(String why) implements StaticType {}

    /**
     * A value of an observed object (a field of a {@code Resource}, a parameter, a template
     * variable): what {@code Values.frozen} lets through, and nothing else. Strings, booleans,
     * numbers, and frozen maps and lists of the same.
     */
    StaticType VALUE = new Union(List.of(Known.of(String.class), Known.of(Boolean.class), Known.of(Character.class),
            Known.of(Long.class), Known.of(Double.class), Known.of(BigInteger.class), Known.of(BigDecimal.class),
            new Known(Map.class, Map.class, true), new Known(List.class, List.class, true)));

    /** The type of an element of {@code container} (a list, set, array, map's value), as far as known. */
    static StaticType elementOf(StaticType container) {
        if (container instanceof Union union) {
            List<StaticType> elements = new ArrayList<>();
            for (StaticType member : union.members()) elements.add(elementOf(member));
            return union(elements);
        }
        if (!(container instanceof Known known)) return new Unknown("the elements of " + describe(container));
        if (known.raw().isArray()) return boxed(known.raw().getComponentType());
        int argument = Map.class.isAssignableFrom(known.raw()) ? 1
                : Collection.class.isAssignableFrom(known.raw()) || Iterable.class.isAssignableFrom(known.raw()) ? 0 : -1;
        if (argument < 0) return new Unknown("the elements of a " + known.raw().getName());
        if (known.generic() instanceof ParameterizedType p && p.getActualTypeArguments().length > argument
                && p.getActualTypeArguments()[argument] instanceof Class<?> element && element != Object.class) {
            return Known.of(element);
        }
        return known.frozen() ? VALUE : Known.of(Object.class);
    }

    static StaticType boxed(Class<?> type) {
        if (!type.isPrimitive()) return Known.of(type);
        if (type == void.class) return new Unknown("nothing (void)");
        return Known.of(java.lang.invoke.MethodType.methodType(type).wrap().returnType());
    }

    /** One type when all are the same, else their union (flattened, without repeats). */
    static StaticType union(List<StaticType> types) {
        List<StaticType> flat = new ArrayList<>();
        for (StaticType type : types) {
            for (StaticType member : type instanceof Union u ? u.members() : List.of(type)) {
                if (!flat.contains(member)) flat.add(member);
            }
        }
        if (flat.size() == 1) return flat.get(0);
        for (StaticType member : flat) if (member instanceof Unknown) return member;
        return new Union(List.copyOf(flat));
    }

    static String describe(StaticType type) {
        if (type instanceof Known k) return k.raw().getName();
        if (type instanceof ClassRef c) return c.raw().getName();
        if (type instanceof Declared d) return d.declaration().name();
        if (type instanceof DeclaredRef d) return d.declaration().name();
        if (type == VALUE) return "a value of an observed object";
        if (type instanceof Union u) return "one of " + u.members().stream().map(StaticType::describe).toList();
        return ((Unknown) type).why();
    }
}
