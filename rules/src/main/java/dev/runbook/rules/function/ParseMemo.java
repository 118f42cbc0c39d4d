package dev.runbook.rules.function;

import java.util.function.Function;

/**
 * The last results of a pure parse function by input text, in a small direct-mapped table: rules ask
 * for the same versions, quantities and durations of the same objects every cycle, and a
 * table look-up costs a fraction of a regular expression. A slot holds one text and what parsing it
 * gave (a value, or the message it was refused with); a new text takes the slot of its hash. Bounded
 * by construction, shared by all threads without locks: entries are immutable, so a thread sees a
 * whole entry or an older one, and at worst parses again. Only for functions whose result depends on
 * the text alone and is immutable.
 */
final class ParseMemo<T> {
    private static final int SLOTS = 256;

    private record Entry(String text, Object value, String refusal) {}

    private final Entry[] slots = new Entry[SLOTS];
    private final Function<String, T> parse;

    ParseMemo(Function<String, T> parse) {
        this.parse = parse;
    }

    /** What {@code parse} gives for the text: the same value, or an IllegalArgumentException with the same message. */
    @SuppressWarnings("unchecked")
    T parse(String text) {
        if (text == null) return parse.apply(null);
        int slot = text.hashCode() & (SLOTS - 1);
        Entry entry = slots[slot];
        if (entry != null && entry.text().equals(text)) {
            if (entry.refusal() != null) throw new IllegalArgumentException(entry.refusal());
            return (T) entry.value();
        }
        try {
            T value = parse.apply(text);
            slots[slot] = new Entry(text, value, null);
            return value;
        } catch (IllegalArgumentException refused) {
            slots[slot] = new Entry(text, null, refused.getMessage());
            throw refused;
        }
    }
}
