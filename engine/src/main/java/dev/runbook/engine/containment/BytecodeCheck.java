package dev.runbook.engine.containment;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ConstantDynamic;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Checks one compiled class of a bundle against the {@link AllowList}: every method it calls, every
 * field it reads or writes (allowed on the class named and on the class that declares it; a member
 * inherited by the bundle's own classes from outside the bundle is that class's), every class it
 * creates, casts to, catches or extends, every lambda and method reference and every invokedynamic
 * bootstrap, every lock ({@code synchronized}) and every regular expression written as a literal.
 * Reads bytecode, so whatever the source looked like (a fully qualified name, a lambda, a function
 * calling a function), what runs is what is checked.
 */
final class BytecodeCheck {
    /**
     * One use of something not allowed, at a line of the generated Java source; {@code near} is the text
     * to look for in the DRL to place it (the member's name, the keyword, the literal).
     */
    record Finding(String className, String method, int javaLine, String member, String reason, String near) {}

    private static final Set<String> BOOTSTRAPS = Set.of(
            "java/lang/invoke/LambdaMetafactory", "java/lang/invoke/StringConcatFactory");

    /** Drools makes functions serializable; as interfaces alone they call nothing. */
    private static final Set<String> SERIALIZATION = Set.of("java/io/Serializable", "java/io/Externalizable");
    /** Methods that take a regular expression: String's and Pattern's (static). */
    private static final Set<String> STRING_REGEX = Set.of("matches", "replaceAll", "replaceFirst", "split");
    private static final Set<String> PATTERN_REGEX = Set.of("compile", "matches");

    private final AllowList allowList;
    private final OwnClasses own;
    private final MemberOrigin origin;
    private final boolean generatedByDrools;

    /**
     * @param own               the bundle's own classes (checked themselves, so callable where they declare a member)
     * @param generatedByDrools the class is one of Drools' invokers, which call Drools' own runtime
     */
    BytecodeCheck(AllowList allowList, OwnClasses own, MemberOrigin origin, boolean generatedByDrools) {
        this.allowList = allowList;
        this.own = own;
        this.origin = origin;
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
                if ((access & Opcodes.ACC_SYNCHRONIZED) != 0 && !generatedByDrools) refuse(method, 0, "synchronized", LOCK);
                return new MethodVisitor(Opcodes.ASM9) {
                    private int line;
                    /** String constants pushed since the last call: the literal arguments of the next one. */
                    private final List<String> strings = new ArrayList<>();

                    @Override
                    public void visitLineNumber(int number, Label start) { line = number; }

                    @Override
                    public void visitMethodInsn(int opcode, String owner, String name, String desc, boolean itf) {
                        if (takesRegex(owner, name)) regexLiterals(strings, method, line);
                        strings.clear();
                        if (member(owner, name, desc, method, line)) returned(owner, name, Type.getReturnType(desc), method, line);
                    }

                    @Override
                    public void visitInsn(int opcode) {
                        if (opcode == Opcodes.MONITORENTER && !generatedByDrools) refuse(method, line, "synchronized", LOCK);
                    }

                    @Override
                    public void visitFieldInsn(int opcode, String owner, String name, String desc) {
                        if (member(owner, name, desc, method, line) && (opcode == Opcodes.GETFIELD || opcode == Opcodes.GETSTATIC)) {
                            returned(owner, name, Type.getType(desc), method, line);
                        }
                    }

                    @Override
                    public void visitTypeInsn(int opcode, String type) { type(type, method, line, ""); }

                    @Override
                    public void visitMultiANewArrayInsn(String desc, int dims) { type(desc, method, line, ""); }

                    @Override
                    public void visitLdcInsn(Object value) {
                        if (value instanceof String text) strings.add(text);
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
                            if (!(arg instanceof Handle h)) continue;
                            int opcode = h.getTag() == Opcodes.H_INVOKESTATIC ? Opcodes.INVOKESTATIC : Opcodes.INVOKEVIRTUAL;
                            if (BudgetInstrumenter.guarded(opcode, h.getOwner(), h.getName(), h.getDesc()) != null) {
                                // The engine rewrites calls of these to match under the budget; a reference would escape it.
                                refuse(method, line, h.getOwner().replace('/', '.') + "." + h.getName(), "a method reference to a "
                                        + "regular-expression method is not allowed in rules: call it in a lambda");
                            }
                            member(h.getOwner(), h.getName(), h.getDesc(), method, line);
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
            private boolean member(String owner, String name, String desc, String method, int line) {
                String element = elementType(owner);
                if (element == null) return true; // a primitive array: length, clone
                String dotted = element.replace('/', '.');
                if (!own.contains(element)) {
                    String refused = external(element, name, desc);
                    if (refused != null) refuse(method, line, dotted + "." + name, refused);
                    return refused == null;
                }
                if (allowList.deniesEverywhere(name)) {
                    refuse(method, line, dotted + "." + name, "not on the allow-list");
                    return false;
                }
                // The bundle's own where one of its classes declares it; else inherited from a class outside the bundle.
                List<String> from = own.inheritedFrom(element, name);
                if (from.isEmpty()) return true;
                for (String outside : from) {
                    if (origin.declaring(outside, name, desc) == null) continue;
                    String refused = external(outside, name, desc);
                    if (refused != null) {
                        refuse(method, line, dotted + "." + name, "inherited from " + outside.replace('/', '.') + ": " + refused);
                    }
                    return refused == null;
                }
                return true; // declared nowhere: the JVM refuses the call itself
            }

            /** Why a member of a class outside the bundle is refused, or null when it is allowed. */
            private String external(String owner, String name, String desc) {
                String dotted = owner.replace('/', '.');
                if (!permits(dotted, name)) return "not on the allow-list";
                if (generatedByDrools) return null;
                Class<?> declaring = origin.declaring(owner, name, desc);
                if (declaring == null || declaring.getName().equals(dotted) || !Modifier.isPublic(declaring.getModifiers())) return null;
                return permits(declaring.getName(), name) ? null
                        : "declared by " + declaring.getName() + ", where it is not on the allow-list";
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
                if (element == null || generatedByDrools || own.contains(element)) return;
                String dotted = element.replace('/', '.');
                if (isDroolsRuntime(dotted) || permitsType(dotted)) return;
                refuse(method, line, owner.replace('/', '.') + "." + name, "returns a " + dotted + ", which is not on the "
                        + "allow-list, so rules may not hold one");
            }

            private void type(String internalName, String method, int line, String how) {
                String element = elementType(internalName);
                if (element == null || generatedByDrools || own.contains(element)) return;
                String dotted = element.replace('/', '.');
                if (!permitsType(dotted)) refuse(method, line, how + dotted, "not on the allow-list");
            }

            /** A regular expression written as a literal: refused when its shape can backtrack for ages. */
            private void regexLiterals(List<String> literals, String method, int line) {
                for (String literal : literals) {
                    String problem = RegexShape.problem(literal);
                    if (problem != null) {
                        refuse(method, line, "the regular expression \"" + literal + "\"", "it has " + problem
                                + ", which can make matching take exponential time; write it without", literal);
                    }
                }
            }

            private void refuse(String method, int line, String what, String reason) {
                String simple = what.substring(what.lastIndexOf('.') + 1);
                if (simple.equals("<init>")) {
                    String owner = what.substring(0, what.lastIndexOf('.'));
                    simple = owner.substring(owner.lastIndexOf('.') + 1);
                }
                refuse(method, line, what, reason, simple);
            }

            private void refuse(String method, int line, String what, String reason, String near) {
                findings.add(new Finding(className, method, line, what, reason, near));
            }
        }, 0);
        return findings;
    }

    private static final String LOCK = "a lock is not allowed in rules: one cycle holding it would stop every other cycle "
            + "that waits for it (two could wait for each other for ever), and no budget reaches a thread that waits";

    private static boolean takesRegex(String owner, String name) {
        return owner.equals("java/lang/String") && STRING_REGEX.contains(name)
                || owner.equals("java/util/regex/Pattern") && PATTERN_REGEX.contains(name);
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
