package dev.runbook.engine.containment;

import org.objectweb.asm.Type;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which class declares a member that bytecode reaches through a class outside the bundle: the class
 * named in the instruction, one of its superclasses, or an interface (a default method). Looked up by
 * reflection on classes loaded without initialising them; remembered for one compile.
 */
final class MemberOrigin {
    private final ClassLoader loader;
    private final Map<String, Optional<Class<?>>> found = new HashMap<>();

    MemberOrigin(ClassLoader loader) {
        this.loader = loader;
    }

    /**
     * The class that declares {@code name} (a method of {@code descriptor}, a field, a constructor) as
     * reached through {@code owner} (an internal name); null when it cannot be found (the JVM would
     * refuse the call itself).
     */
    Class<?> declaring(String owner, String name, String descriptor) {
        return found.computeIfAbsent(owner + "." + name + descriptor, k -> Optional.ofNullable(lookUp(owner, name, descriptor))).orElse(null);
    }

    private Class<?> lookUp(String owner, String name, String descriptor) {
        Class<?> start;
        try {
            start = Class.forName(owner.replace('/', '.'), false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
        if (name.equals("<init>") || name.equals("<clinit>")) return start;
        boolean method = descriptor.startsWith("(");
        Deque<Class<?>> todo = new ArrayDeque<>();
        Set<Class<?>> seen = new HashSet<>();
        todo.add(start);
        // Superclasses first (a class's method wins over an interface's default), then interfaces.
        for (Class<?> c = start; c != null; c = c.getSuperclass()) {
            if (declares(c, name, descriptor, method)) return c;
            todo.add(c);
        }
        while (!todo.isEmpty()) {
            Class<?> c = todo.poll();
            if (!seen.add(c)) continue;
            for (Class<?> i : c.getInterfaces()) {
                if (declares(i, name, descriptor, method)) return i;
                todo.add(i);
            }
        }
        return null;
    }

    private static boolean declares(Class<?> c, String name, String descriptor, boolean method) {
        try {
            if (method) {
                for (Method m : c.getDeclaredMethods()) {
                    if (m.getName().equals(name) && Type.getMethodDescriptor(m).equals(descriptor)) return true;
                }
                return false;
            }
            for (Field f : c.getDeclaredFields()) if (f.getName().equals(name)) return true;
            return false;
        } catch (LinkageError e) {
            return false;
        }
    }
}
