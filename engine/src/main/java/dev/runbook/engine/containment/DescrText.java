package dev.runbook.engine.containment;

import dev.runbook.engine.problem.Problem;
import org.drools.drl.ast.descr.BaseDescr;

/**
 * Places what a check found in a DRL file as {@code file:line:col}. Drools' descriptors give the
 * character range of most parts (a rule, an attribute, a constraint, a field); an expression's own
 * offset is where its text first appears in that range, and a part without a range (an annotation,
 * a {@code from} expression) is looked up in the range of the part that holds it.
 */
final class DescrText {
    private final ParsedDrl drl;

    DescrText(ParsedDrl drl) {
        this.drl = drl;
    }

    ParsedDrl drl() { return drl; }

    /** The offset of {@code text} within the range of {@code within} (or after {@code from}), else the range's start. */
    int offsetOf(String text, BaseDescr within, int from) {
        int start = Math.max(from, start(within));
        int end = within.getEndCharacter() > 0 ? Math.min(drl.text().length(), within.getEndCharacter() + 1) : drl.text().length();
        if (text != null && !text.isBlank()) {
            int at = drl.text().indexOf(text.strip(), start);
            if (at >= 0 && at < end) return at;
        }
        return start;
    }

    int offsetOf(String text, BaseDescr within) {
        return offsetOf(text, within, 0);
    }

    /** The start of {@code descr}'s range, or of the line Drools gave it. */
    int start(BaseDescr descr) {
        if (descr.getStartCharacter() >= 0) return descr.getStartCharacter();
        if (descr.getLine() > 0) return lineStart(descr.getLine()) + Math.max(0, descr.getColumn());
        return 0;
    }

    Problem at(int offset, String message) {
        return at(drl.file(), drl.text(), offset, message);
    }

    /** {@code message} at {@code offset} of {@code text}, the file {@code file}, as {@code file:line:col}. */
    static Problem at(String file, String text, int offset, String message) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return new Problem(file, line, offset - lineStart + 1, message);
    }

    private int lineStart(int line) {
        int offset = 0;
        for (int l = 1; l < line; l++) {
            int next = drl.text().indexOf('\n', offset);
            if (next < 0) return offset;
            offset = next + 1;
        }
        return offset;
    }
}
