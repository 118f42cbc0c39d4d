package dev.runbook.engine.containment;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A bundle's own classes (its compiled code and the classes of its declared types), with what each
 * declares and what it extends, read from their bytecode: a member used through one of them is the
 * bundle's own only where one of them declares it. A member it inherits from a class outside the
 * bundle is that class's, and is checked as such.
 */
final class OwnClasses {
    private record Info(String superName, List<String> interfaces, Set<String> members) {}

    private final Map<String, Info> classes = new HashMap<>();

    /** @param bytecode internal name to bytecode, of every class of the bundle */
    OwnClasses(Map<String, byte[]> bytecode) {
        bytecode.forEach((name, bytes) -> {
            Set<String> members = new HashSet<>();
            String[] superName = new String[1];
            List<String> implemented = new ArrayList<>();
            new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
                @Override
                public void visit(int version, int access, String n, String signature, String superClass, String[] interfaces) {
                    superName[0] = superClass;
                    if (interfaces != null) implemented.addAll(List.of(interfaces));
                }

                @Override
                public FieldVisitor visitField(int access, String field, String descriptor, String signature, Object value) {
                    members.add(field);
                    return null;
                }

                @Override
                public MethodVisitor visitMethod(int access, String method, String descriptor, String signature, String[] exceptions) {
                    members.add(method);
                    return null;
                }
            }, ClassReader.SKIP_CODE);
            classes.put(name, new Info(superName[0], implemented, members));
        });
    }

    boolean contains(String internalName) {
        return classes.containsKey(internalName);
    }

    /**
     * The classes outside the bundle that {@code name} of the own class {@code owner} may come from:
     * none when one of the bundle's classes declares it (on the way up from {@code owner}), else the
     * first superclass that is not the bundle's and every interface the bundle's classes on the way
     * implement.
     */
    List<String> inheritedFrom(String owner, String name) {
        List<String> from = new ArrayList<>();
        String c = owner;
        while (classes.containsKey(c)) {
            Info info = classes.get(c);
            if (info.members().contains(name)) return List.of();
            from.addAll(info.interfaces());
            c = info.superName();
        }
        if (c != null) from.add(0, c);
        return from;
    }
}
