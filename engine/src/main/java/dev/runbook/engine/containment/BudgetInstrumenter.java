package dev.runbook.engine.containment;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

import java.util.HashSet;
import java.util.Set;

/**
 * Rewrites a bundle's compiled class so that every method starts with a call to
 * {@link RuleBudget#check()} and every backward jump (the end of a loop body) makes one too. Any
 * code that runs long either loops or recurses, so it reaches a check within a few instructions.
 * Every array creation first asks {@link RuleBudget#allocating} (which hands the length back), so an
 * array too large for the cycle's memory budget is refused before it exists, in the rule that asked.
 * Every call of a regular-expression method of String or Pattern goes to {@link RegexGuard}, whose
 * matching checks the budget as it reads its input. None of this adds a jump target or leaves
 * anything new on the stack, so the class's stack map frames stay valid as they are (only the
 * maximum stack depth is computed again).
 */
final class BudgetInstrumenter {
    private static final String BUDGET = RuleBudget.class.getName().replace('.', '/');
    private static final String GUARD = RegexGuard.class.getName().replace('.', '/');
    /** Bytes per element of NEWARRAY's types (T_BOOLEAN 4 .. T_LONG 11); a reference counts 4 (compressed). */
    private static final int[] ELEMENT_BYTES = {0, 0, 0, 0, 1, 2, 4, 8, 1, 2, 4, 8};
    private static final int REFERENCE_BYTES = 4;

    private BudgetInstrumenter() {}

    static byte[] instrument(byte[] bytes) {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
                if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) return next;
                return new Checks(next);
            }
        }, 0);
        return writer.toByteArray();
    }

    private static final class Checks extends MethodVisitor {
        private final Set<Label> seen = new HashSet<>();

        Checks(MethodVisitor next) {
            super(Opcodes.ASM9, next);
        }

        @Override
        public void visitCode() {
            super.visitCode();
            check();
        }

        @Override
        public void visitLabel(Label label) {
            seen.add(label);
            super.visitLabel(label);
        }

        @Override
        public void visitJumpInsn(int opcode, Label target) {
            if (seen.contains(target)) check();
            super.visitJumpInsn(opcode, target);
        }

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
            if (backward(dflt, labels)) check();
            super.visitTableSwitchInsn(min, max, dflt, labels);
        }

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
            if (backward(dflt, labels)) check();
            super.visitLookupSwitchInsn(dflt, keys, labels);
        }

        private boolean backward(Label dflt, Label[] labels) {
            if (seen.contains(dflt)) return true;
            for (Label l : labels) if (seen.contains(l)) return true;
            return false;
        }

        @Override
        public void visitIntInsn(int opcode, int operand) {
            if (opcode == Opcodes.NEWARRAY) allocating(ELEMENT_BYTES[operand]);
            super.visitIntInsn(opcode, operand);
        }

        @Override
        public void visitTypeInsn(int opcode, String type) {
            if (opcode == Opcodes.ANEWARRAY) allocating(REFERENCE_BYTES);
            super.visitTypeInsn(opcode, type);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
            String guarded = guarded(opcode, owner, name, descriptor);
            if (guarded != null) {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, GUARD, guarded, staticDescriptor(opcode, owner, descriptor), false);
            } else {
                super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
            }
        }

        /** The length is on the stack: {@code allocating(length, bytes)} returns it for the creation. */
        private void allocating(int elementBytes) {
            super.visitLdcInsn(elementBytes);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, BUDGET, "allocating", "(II)I", false);
        }

        private void check() {
            super.visitMethodInsn(Opcodes.INVOKESTATIC, BUDGET, "check", "()V", false);
        }
    }

    /** The {@link RegexGuard} method that stands for this call, or null when it is no regular-expression call. */
    static String guarded(int opcode, String owner, String name, String descriptor) {
        if (owner.equals("java/lang/String") && opcode == Opcodes.INVOKEVIRTUAL) {
            return switch (name + descriptor) {
                case "matches(Ljava/lang/String;)Z", "replaceAll(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;",
                     "replaceFirst(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;",
                     "split(Ljava/lang/String;)[Ljava/lang/String;", "split(Ljava/lang/String;I)[Ljava/lang/String;" -> name;
                default -> null;
            };
        }
        if (owner.equals("java/util/regex/Pattern")) {
            return switch (name + descriptor) {
                case "matches(Ljava/lang/String;Ljava/lang/CharSequence;)Z" -> "patternMatches";
                case "matcher(Ljava/lang/CharSequence;)Ljava/util/regex/Matcher;" -> "matcher";
                case "split(Ljava/lang/CharSequence;)[Ljava/lang/String;", "split(Ljava/lang/CharSequence;I)[Ljava/lang/String;" -> "patternSplit";
                default -> null;
            };
        }
        return null;
    }

    /** A virtual call's descriptor with the receiver as first parameter; a static call's as it is. */
    private static String staticDescriptor(int opcode, String owner, String descriptor) {
        return opcode == Opcodes.INVOKESTATIC ? descriptor : "(L" + owner + ";" + descriptor.substring(1);
    }
}
