package dev.runbook.engine.containment;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Checks one compiled class of a bundle against the {@link AllowList}: every method it calls, every
 * field it reads or writes, every class it creates, casts to, catches or extends, every lambda and
 * method reference and every invokedynamic bootstrap. Reads bytecode, so whatever the source looked
 * like (a fully qualified name, a lambda, a function calling a function), what runs is what is checked.
 */
final class BytecodeCheck {
    /** One use of something not allowed, at a line of the generated Java source. */
    record Finding(String className, String method, int javaLine, String member, String reason) {}

    private static final Set<String> BOOTSTRAPS = Set.of(
            "java/lang/invoke/LambdaMetafactory", "java/lang/invoke/StringConcatFactory");

    /** Drools makes functions serializable; as interfaces alone they call nothing. */
    private static final Set<String> SERIALIZATION = Set.of("java/io/Serializable", "java/io/Externalizable");

    private final AllowList allowList;
    private final Set<String> bundleClasses;
    private final boolean generatedByDrools;

    /**
     * @param bundleClasses     internal names of the bundle's own classes (checked themselves, so callable)
     * @param generatedByDrools the class is one of Drools' invokers, which call Drools' own runtime
     */
    BytecodeCheck(AllowList allowList, Set<String> bundleClasses, boolean generatedByDrools) {
        this.allowList = allowList;
        this.bundleClasses = bundleClasses;
        this.generatedByDrools = generatedByDrools;
    }

    List<Finding> check(byte[] bytes) {
        List<Finding> findings = new ArrayList<>();
        new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
            private String className;

            @Override
            public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
                className = name;
                if (superName != null) type(superName, "<class>", 0, "extends ");
                if (interfaces != null) {
                    for (String i : interfaces) if (!SERIALIZATION.contains(i)) type(i, "<class>", 0, "implements ");
                }
            }

            @Override
            public MethodVisitor visitMethod(int access, String method, String descriptor, String signature, String[] exceptions) {
                return new MethodVisitor(Opcodes.ASM9) {
                    private int line;

                    @Override
                    public void visitLineNumber(int number, Label start) { line = number; }

                    @Override
                    public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean itf) {
                        if (member(owner, name, method, line)) returned(owner, name, Type.getReturnType(desc), method, line);
                    }

                    @Override
                    public void visitFieldInsn(int opcode, String owner, String name, String desc) {
                        if (member(owner, name, method, line) && (opcode == Opcodes.GETFIELD || opcode == Opcodes.GETSTATIC)) {
                            returned(owner, name, Type.getType(desc), method, line);
                        }
                    }

                    @Override
                    public void visitTypeInsn(int opcode, String type) { type(type, method, line, ""); }

                    @Override
                    public void visitMultiANewArrayInsn(String desc, int dims) { type(desc, method, line, ""); }

                    @Override
                    public void visitLdcInsn(Object value) {
                        if (value instanceof Type t && (t.getSort() == Type.OBJECT || t.getSort() == Type.ARRAY)) {
                            type(t.getInternalName(), method, line, "");
                        } else if (value instanceof Handle h) {
                            refuse(method, line, h.getOwner() + "." + h.getName(), "method handles are not allowed");
                        } else if (value instanceof ConstantDynamic) {
                            refuse(method, line, "a dynamic constant", "dynamic constants are not allowed");
                        }
                    }

                    @Override
                    public void visitInvokeDynamicInsn(String name, String desc, Handle bootstrap, Object... args) {
                        if (!BOOTSTRAPS.contains(bootstrap.getOwner())) {
                            refuse(method, line, bootstrap.getOwner() + "." + bootstrap.getName(),
                                    "only lambdas and string concatenation may use invokedynamic");
                            return;
                        }
                        type(Type.getReturnType(desc).getInternalName(), method, line, "");
                        for (Object arg : args) {
                            if (arg instanceof Handle h) member(h.getOwner(), h.getName(), method, line);
                        }
                    }

                    @Override
                    public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
                        if (type == null) return; // finally: rethrows what it caught
                        if (type.equals("java/lang/Throwable") || type.endsWith("Error")) {
                            refuse(method, line, type.replace('/', '.'),
                                    "catching an Error or Throwable could swallow the engine's stop of a runaway rule");
                        } else {
                            type(type, method, line, "catch ");
                        }
                    }
                };
            }

            /** Whether the member is allowed; refuses it when not. */
            private boolean member(String owner, String name, String method, int line) {
                String element = elementType(owner);
                if (element == null) return true; // a primitive array: length, clone
                String dotted = element.replace('/', '.');
                boolean own = bundleClasses.contains(element);
                boolean allowed = own ? !allowList.deniesEverywhere(name) : permits(dotted, name);
                if (!allowed) refuse(method, line, dotted + "." + name, "not on the allow-list");
                return allowed;
            }

            /**
             * What an allowed member returns must be allowed too ({@code Enum.getDeclaringClass()}
             * returns a Class): a value of any other type, stored where conditions and templates
             * read it as an Object, would let MVEL call its members. Drools' own types, which the
             * generated code passes around, are reached only through the members the allow-list names.
             */
            private void returned(String owner, String name, Type type, String method, int line) {
                String element = type.getSort() == Type.OBJECT ? type.getInternalName()
                        : type.getSort() == Type.ARRAY ? elementType(type.getDescriptor()) : null;
                if (element == null || generatedByDrools || bundleClasses.contains(element)) return;
                String dotted = element.replace('/', '.');
                if (isDroolsRuntime(dotted) || permitsType(dotted)) return;
                refuse(method, line, owner.replace('/', '.') + "." + name, "returns a " + dotted + ", which is not on the "
                        + "allow-list, so rules may not hold one");
            }

            private void type(String internalName, String method, int line, String how) {
                String element = elementType(internalName);
                if (element == null || generatedByDrools || bundleClasses.contains(element)) return;
                String dotted = element.replace('/', '.');
                if (!permitsType(dotted)) refuse(method, line, how + dotted, "not on the allow-list");
            }

            private void refuse(String method, int line, String what, String reason) {
                findings.add(new Finding(className, method, line, what, reason));
            }
        }, 0);
        return findings;
    }

    private boolean permits(String className, String member) {
        if (generatedByDrools && isDroolsRuntime(className)) return true;
        if (generatedByDrools && className.equals("java.lang.Object") && member.equals("getClass")) return true;
        return allowList.permitsMember(className, member);
    }

    private boolean permitsType(String className) {
        return (generatedByDrools && isDroolsRuntime(className)) || allowList.permitsType(className);
    }

    private static boolean isDroolsRuntime(String className) {
        return className.startsWith("org.drools.") || className.startsWith("org.kie.");
    }

    /** The class an array descriptor or internal name is about; null for primitives. */
    private static String elementType(String internalNameOrDescriptor) {
        if (!internalNameOrDescriptor.startsWith("[")) return internalNameOrDescriptor;
        Type element = Type.getType(internalNameOrDescriptor).getElementType();
        return element.getSort() == Type.OBJECT ? element.getInternalName() : null;
    }
}
