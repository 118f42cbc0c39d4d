package dev.runbook.engine.containment;

import org.mvel2.util.PropertyTools;

import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Resolves one step of an MVEL name chain on the static type it starts from, as MVEL resolves it
 * when the expression runs: a property through MVEL's own {@link PropertyTools#getFieldOrAccessor}
 * (a public field, {@code getX()}, {@code isX()}, {@code x()}), a key on a map, a method by name and
 * number of arguments (every overload that fits, since MVEL picks among them by the arguments'
 * runtime types), an index on a map, list or array. Each member reached must be on the allow-list,
 * on the class it is reached through and on the class that declares it, and must return a type on
 * the allow-list; a member the static type does not have is refused, since MVEL would look it up
 * on whatever class the value has when the expression runs.
 */
final class MemberResolver {
    /** The type a step leads to, or why it is refused ({@code absent}: the type has no such member). */
    record Result(StaticType type, String what, String reason, boolean absent) {
        static Result ok(StaticType type) { return new Result(type, null, null, false); }
        static Result refused(String what, String reason) { return new Result(null, what, reason, false); }
        static Result absent(String what, String reason) { return new Result(null, what, reason, true); }
        boolean isRefused() { return reason != null; }
    }

    private static final String FACTS = "dev.runbook.rules.fact.";
    private final AllowList allowList;
    private final DeclaredTypes declared;
    /** Classes the engine itself hands to expressions (a template's {@code yaml}): trusted as allowed. */
    private final Set<Class<?>> trusted;

    MemberResolver(AllowList allowList, DeclaredTypes declared, Set<Class<?>> trusted) {
        this.allowList = allowList;
        this.declared = declared;
        this.trusted = trusted;
    }

    Result property(StaticType on, String name) {
        if (on instanceof StaticType.Union union) return inEach(union, t -> property(t, name), name);
        if (on instanceof StaticType.Known known) return knownProperty(known, name);
        if (on instanceof StaticType.ClassRef ref) {
            Field field = staticField(ref.raw(), name);
            if (field == null) return Result.absent(ref.raw().getName() + "." + name, "MVEL finds no public static field "
                    + name + " on " + ref.raw().getName() + " (a class's other members are not allowed in rules)");
            return checked(field, ref.raw(), field.getGenericType(), StaticType.Known.of(ref.raw()));
        }
        if (on instanceof StaticType.Declared d) {
            StaticType field = declared.fieldType(d.declaration(), name);
            if (field != null) return Result.ok(field);
            return knownProperty(StaticType.Known.of(d.declaration().isEnum() ? Enum.class : Object.class), name);
        }
        if (on instanceof StaticType.DeclaredRef ref) {
            if (ref.declaration().constants().contains(name)) return Result.ok(new StaticType.Declared(ref.declaration()));
            return Result.absent(ref.declaration().name() + "." + name, "no constant " + name + " is declared in "
                    + ref.declaration().name());
        }
        return unknown(on, name);
    }

    Result call(StaticType on, String name, int arity) {
        if (on instanceof StaticType.Union union) return inEach(union, t -> call(t, name, arity), name);
        if (on instanceof StaticType.Known known) return methods(known.raw(), name, arity, false, known);
        if (on instanceof StaticType.ClassRef ref) return methods(ref.raw(), name, arity, true, StaticType.Known.of(ref.raw()));
        if (on instanceof StaticType.Declared d) {
            String field = accessorField(name, arity);
            StaticType type = field == null ? null : declared.fieldType(d.declaration(), field);
            if (type != null) return Result.ok(name.startsWith("set") ? new StaticType.Unknown("nothing (a setter)") : type);
            return call(StaticType.Known.of(d.declaration().isEnum() ? Enum.class : Object.class), name, arity);
        }
        if (on instanceof StaticType.DeclaredRef ref && ref.declaration().isEnum() && name.equals("valueOf") && arity == 1) {
            return Result.ok(new StaticType.Declared(ref.declaration()));
        }
        return unknown(on, name);
    }

    Result index(StaticType on) {
        if (on instanceof StaticType.Union union) return inEach(union, this::index, "[]");
        if (on instanceof StaticType.Known known && (known.raw().isArray() || Map.class.isAssignableFrom(known.raw())
                || List.class.isAssignableFrom(known.raw()))) {
            return Result.ok(StaticType.elementOf(known));
        }
        if (on instanceof StaticType.Known known && known.raw() == String.class) return Result.ok(StaticType.Known.of(Character.class));
        return Result.absent("[]", "an index on " + StaticType.describe(on) + " is not allowed in rules (MVEL would read it as a "
                + "property named by a string): index maps, lists and arrays only");
    }

    private Result knownProperty(StaticType.Known known, String name) {
        Class<?> type = known.raw();
        if (type.isArray() && name.equals("length")) return Result.ok(StaticType.Known.of(Integer.class));
        Member member = PropertyTools.getFieldOrAccessor(type, name);
        if (Map.class.isAssignableFrom(type)) {
            // MVEL reads x.key of a map as the entry when the key is there, else as a getter of the map.
            StaticType value = StaticType.elementOf(known);
            if (member == null) return Result.ok(value);
            Result getter = checkedMember(member, known);
            return getter.isRefused() ? getter : Result.ok(StaticType.union(List.of(value, getter.type())));
        }
        if (member == null) {
            return Result.absent(type.getName() + "." + name, "MVEL finds no property " + name + " on " + type.getName()
                    + " (a public field, get" + capitalised(name) + "(), is" + capitalised(name) + "() or " + name + "())");
        }
        return checkedMember(member, known);
    }

    private Result checkedMember(Member member, StaticType.Known receiver) {
        Type generic = member instanceof Method m ? m.getGenericReturnType() : ((Field) member).getGenericType();
        return checked(member, receiver.raw(), generic, receiver);
    }

    private Result methods(Class<?> type, String name, int arity, boolean staticOnly, StaticType.Known receiver) {
        List<Method> candidates = new ArrayList<>();
        List<Method> all = new ArrayList<>(Arrays.asList(type.getMethods()));
        if (type.isInterface()) all.addAll(Arrays.asList(Object.class.getMethods()));
        for (Method method : all) {
            if (!method.getName().equals(name) || staticOnly && !Modifier.isStatic(method.getModifiers())) continue;
            int parameters = method.getParameterCount();
            if (parameters == arity || method.isVarArgs() && arity >= parameters - 1) candidates.add(method);
        }
        if (candidates.isEmpty()) {
            return Result.absent(type.getName() + "." + name, "MVEL finds no " + (staticOnly ? "static " : "") + "method "
                    + name + " with " + arity + " argument" + (arity == 1 ? "" : "s") + " on " + type.getName());
        }
        List<StaticType> results = new ArrayList<>();
        for (Method method : candidates) {
            Result result = checked(method, type, method.getGenericReturnType(), receiver);
            if (result.isRefused()) return result;
            results.add(result.type());
        }
        return Result.ok(StaticType.union(results));
    }

    /** The member, reached through {@code through}, if allowed, with the type it returns. */
    private Result checked(Member member, Class<?> through, Type generic, StaticType.Known receiver) {
        Class<?> declaring = member.getDeclaringClass();
        String name = member.getName();
        String what = declaring.getName() + "." + name;
        boolean allowed = trusted.contains(through) || allowList.permitsMember(through.getName(), name)
                && (allowList.permitsMember(declaring.getName(), name) || !Modifier.isPublic(declaring.getModifiers()));
        if (allowed && trusted.contains(through) && allowList.deniesEverywhere(name)) allowed = false;
        if (!allowed) return Result.refused(what, "not on the allow-list");
        Class<?> raw = member instanceof Method m ? m.getReturnType() : ((Field) member).getType();
        Class<?> element = raw;
        while (element.isArray()) element = element.getComponentType();
        if (!element.isPrimitive() && !trusted.contains(element) && !allowList.permitsType(element.getName())) {
            return Result.refused(what, "returns a " + raw.getName() + ", which is not on the allow-list, so rules may not hold one");
        }
        if (raw.isPrimitive()) return Result.ok(StaticType.boxed(raw));
        boolean observed = receiver.frozen() || through.getName().startsWith(FACTS) || declaring.getName().startsWith(FACTS);
        Type resolved = generic instanceof TypeVariable<?> variable ? substituted(variable, receiver) : generic;
        if (resolved instanceof Class<?> c && c != Object.class) return Result.ok(new StaticType.Known(c, c, observed && !isValue(c)));
        if (resolved instanceof ParameterizedType p && p.getRawType() instanceof Class<?> c) return Result.ok(new StaticType.Known(c, p, observed));
        if (observed) return Result.ok(StaticType.VALUE);
        return Result.ok(StaticType.Known.of(raw));
    }

    private static boolean isValue(Class<?> type) {
        return type == String.class || Number.class.isAssignableFrom(type) || type == Boolean.class;
    }

    /** A type variable of the receiver's class (a List's E, a Map's V) as the receiver's type argument. */
    private static Type substituted(TypeVariable<?> variable, StaticType.Known receiver) {
        if (!(receiver.generic() instanceof ParameterizedType p) || !(p.getRawType() instanceof Class<?> raw)) return Object.class;
        TypeVariable<?>[] parameters = raw.getTypeParameters();
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i].getName().equals(variable.getName())) return p.getActualTypeArguments()[i];
        }
        return Object.class;
    }

    private Result inEach(StaticType.Union union, java.util.function.Function<StaticType, Result> step, String name) {
        List<StaticType> results = new ArrayList<>();
        Result firstAbsent = null;
        for (StaticType member : union.members()) {
            Result result = step.apply(member);
            if (result.absent()) {
                if (firstAbsent == null) firstAbsent = result;
                continue; // MVEL would fail on a value of this type: nothing runs
            }
            if (result.isRefused()) return result;
            results.add(result.type());
        }
        if (results.isEmpty()) {
            return Result.absent(name, firstAbsent == null ? "no member " + name : "no type it may have has " + name + " ("
                    + StaticType.describe(union) + ")");
        }
        return Result.ok(StaticType.union(results));
    }

    private static Result unknown(StaticType on, String name) {
        return Result.refused(name, "the type of the value it is read from is not known when the bundle is compiled ("
                + StaticType.describe(on) + "), so MVEL could reach anything through it: bind the value from a pattern "
                + "of a vocabulary or declared type, or compute it in a DRL function");
    }

    private static Field staticField(Class<?> type, String name) {
        try {
            Field field = type.getField(name);
            return Modifier.isStatic(field.getModifiers()) ? field : null;
        } catch (NoSuchFieldException e) {
            return null;
        }
    }

    /** The field a getter or setter of a declared type reads or writes ({@code getName} → name). */
    private static String accessorField(String method, int arity) {
        String prefix = arity == 0 && method.startsWith("get") ? "get" : arity == 0 && method.startsWith("is") ? "is"
                : arity == 1 && method.startsWith("set") ? "set" : null;
        if (prefix == null || method.length() == prefix.length()) return null;
        String field = method.substring(prefix.length());
        return Character.toLowerCase(field.charAt(0)) + field.substring(1);
    }

    private static String capitalised(String name) {
        return name.isEmpty() ? name : Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }
}
