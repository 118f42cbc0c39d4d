package dev.runbook.engine.containment;

/** Finds where in the DRL source a compiled use came from: the name on the mapped line, or near it. */
final class SourcePosition {
    private static final int SEARCH = 2;

    private SourcePosition() {}

    /** {line, column}, 1-based; the column is 0 when the name is not found near the line. */
    static int[] find(String source, int line, String name) {
        String[] lines = source.split("\n", -1);
        for (int distance = 0; distance <= SEARCH; distance++) {
            for (int candidate : new int[] {line + distance, line - distance}) {
                if (candidate < 1 || candidate > lines.length) continue;
                int column = lines[candidate - 1].indexOf(name);
                if (column >= 0 && !name.isEmpty()) return new int[] {candidate, column + 1};
            }
        }
        // Drools maps some generated methods (an eval's) to the consequence: fall back to the first use in the file.
        for (int i = 0; i < lines.length && !name.isEmpty(); i++) {
            int column = lines[i].indexOf(name);
            if (column >= 0 && !lines[i].strip().startsWith("//")) return new int[] {i + 1, column + 1};
        }
        return new int[] {line, 0};
    }
}
