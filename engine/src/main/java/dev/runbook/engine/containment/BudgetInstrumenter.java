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
 * The call takes and leaves nothing on the stack and adds no jump targets, so the class's stack map
 * frames stay valid as they are.
 */
final class BudgetInstrumenter {
    private static final String BUDGET = RuleBudget.class.getName().replace('.', '/');

    private BudgetInstrumenter() {}

    static byte[] instrument(byte[] bytes) {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, 0);
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

        private void check() {
            super.visitMethodInsn(Opcodes.INVOKESTATIC, BUDGET, "check", "()V", false);
        }
    }
}
