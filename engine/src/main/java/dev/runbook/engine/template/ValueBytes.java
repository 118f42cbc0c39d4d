package dev.runbook.engine.template;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A value tree (maps, lists and the leaves {@code Values.frozen} keeps: strings, booleans, characters,
 * whole numbers, decimals and null) as bytes that name each value's type with it, so that two trees
 * whose bytes are equal are equal, types of numbers included, and in the same order. (Two equal trees
 * in another key order give other bytes: a cache keyed by them misses, which is safe.) The render cache
 * keeps a primary this way: about a fifth of the primary as nested maps, exact all the same.
 *
 * <p>Null when the tree holds anything else (the cache then keeps nothing for it).
 */
final class ValueBytes {
    private ValueBytes() {}

    /** The bytes of {@code value}, or null when a leaf is of another type. */
    static byte[] of(Object value) {
        Writer out = new Writer();
        return out.write(value) ? out.bytes() : null;
    }

    private static final class Writer {
        private byte[] buffer = new byte[4096];
        private int size;

        boolean write(Object value) {
            if (value == null) {
                tag('n');
            } else if (value instanceof String text) {
                string(text);
            } else if (value instanceof Map<?, ?> map) {
                tag('{');
                number(map.size());
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    if (!(entry.getKey() instanceof String key)) return false;
                    string(key);
                    if (!write(entry.getValue())) return false;
                }
            } else if (value instanceof List<?> list) {
                tag('[');
                number(list.size());
                for (Object item : list) {
                    if (!write(item)) return false;
                }
            } else if (value instanceof Long number) {
                tag('J');
                number(number);
            } else if (value instanceof Integer number) {
                tag('I');
                number(number);
            } else if (value instanceof Boolean bool) {
                tag(bool ? 't' : 'f');
            } else if (value instanceof Double number) {
                tag('D');
                number(Double.doubleToRawLongBits(number));
            } else if (value instanceof Character c) {
                tag('c');
                number(c);
            } else if (value instanceof BigInteger || value instanceof BigDecimal) {
                tag(value instanceof BigInteger ? 'b' : 'd');
                string(value.toString());
            } else {
                return false;
            }
            return true;
        }

        /** Latin-1 text one byte a character, any other two: never two texts with the same bytes. */
        private void string(String text) {
            int length = text.length();
            boolean latin1 = true;
            for (int i = 0; i < length && latin1; i++) latin1 = text.charAt(i) < 256;
            tag(latin1 ? 's' : 'u');
            number(length);
            room(latin1 ? length : 2 * length);
            for (int i = 0; i < length; i++) {
                char c = text.charAt(i);
                if (!latin1) buffer[size++] = (byte) (c >>> 8);
                buffer[size++] = (byte) c;
            }
        }

        /** A whole number in 7-bit groups, the last without its high bit (zigzag, so small negatives stay short). */
        private void number(long value) {
            long v = (value << 1) ^ (value >> 63);
            room(10);
            while ((v & ~0x7FL) != 0) {
                buffer[size++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            buffer[size++] = (byte) v;
        }

        private void tag(char tag) {
            room(1);
            buffer[size++] = (byte) tag;
        }

        private void room(int bytes) {
            if (size + bytes > buffer.length) buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + bytes));
        }

        byte[] bytes() {
            return Arrays.copyOf(buffer, size);
        }
    }
}
