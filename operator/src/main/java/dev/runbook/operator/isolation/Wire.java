package dev.runbook.operator.isolation;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The values that cross between the operator and a worker, in a compact binary form: what facts and
 * actions are made of (strings, whole numbers, decimals, booleans, characters, null, maps with string
 * keys, lists), each a one-byte tag and its content. No class names and no Java serialization: what a
 * worker sends can only ever decode into these types, and a malformed message is a {@link WireException},
 * never a half-built object.
 *
 * <p>{@link Out} writes; {@link In} reads from one message's bytes and refuses anything that would
 * read past its end, nest deeper than {@value #MAX_DEPTH} levels, or claim more elements than bytes left.
 */
public final class Wire {
    /** How deep maps and lists may nest in a value: far deeper than any Kubernetes object. */
    static final int MAX_DEPTH = 100;
    /** The most characters a big number may have. */
    static final int MAX_DIGITS = 1000;

    private static final byte NULL = 0, STRING = 1, LONG = 2, DOUBLE = 3, TRUE = 4, FALSE = 5, MAP = 6, LIST = 7,
            BIG_INTEGER = 8, BIG_DECIMAL = 9, CHARACTER = 10;

    private Wire() {}

    /** A message whose bytes do not decode: the other side is broken or hostile. */
    public static final class WireException extends RuntimeException {
        public WireException(String message) { super(message); }
    }

    /**
     * Writes one message into a byte array of its own that grows as needed: no stream and no lock per
     * byte, since a decision of a few hundred values is written on every cycle.
     */
    public static final class Out {
        private byte[] bytes = new byte[4096];
        private int size;

        private void room(int more) {
            if (size + more > bytes.length) bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }

        private void put(byte value) {
            room(1);
            bytes[size++] = value;
        }

        public Out writeString(String text) {
            if (text == null) return writeInt(-1);
            byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            writeInt(utf8.length);
            room(utf8.length);
            System.arraycopy(utf8, 0, bytes, size, utf8.length);
            size += utf8.length;
            return this;
        }

        public Out writeInt(int value) {
            room(4);
            bytes[size++] = (byte) (value >>> 24);
            bytes[size++] = (byte) (value >>> 16);
            bytes[size++] = (byte) (value >>> 8);
            bytes[size++] = (byte) value;
            return this;
        }

        public Out writeLong(long value) {
            writeInt((int) (value >>> 32));
            return writeInt((int) value);
        }

        public Out writeBoolean(boolean value) {
            return writeInt(value ? 1 : 0);
        }

        public Out writeStrings(List<String> texts) {
            writeInt(texts.size());
            texts.forEach(this::writeString);
            return this;
        }

        /** One value of the types facts hold; anything else is a bug of the caller's. */
        public Out writeValue(Object value) {
            if (value == null) {
                put(NULL);
            } else if (value instanceof String text) {
                put(STRING);
                writeString(text);
            } else if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
                put(LONG);
                writeLong(((Number) value).longValue());
            } else if (value instanceof Double || value instanceof Float) {
                put(DOUBLE);
                writeLong(Double.doubleToRawLongBits(((Number) value).doubleValue()));
            } else if (value instanceof Boolean bool) {
                put(bool ? TRUE : FALSE);
            } else if (value instanceof Map<?, ?> map) {
                put(MAP);
                writeInt(map.size());
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    writeString(String.valueOf(entry.getKey()));
                    writeValue(entry.getValue());
                }
            } else if (value instanceof List<?> list) {
                put(LIST);
                writeInt(list.size());
                for (Object item : list) writeValue(item);
            } else if (value instanceof BigInteger big) {
                put(BIG_INTEGER);
                writeString(big.toString());
            } else if (value instanceof BigDecimal big) {
                put(BIG_DECIMAL);
                writeString(big.toString());
            } else if (value instanceof Character c) {
                put(CHARACTER);
                room(2);
                bytes[size++] = (byte) (c >>> 8);
                bytes[size++] = (byte) c.charValue();
            } else {
                throw new IllegalArgumentException("a " + value.getClass().getName() + " does not cross to a worker");
            }
            return this;
        }

        public byte[] toBytes() { return Arrays.copyOf(bytes, size); }
    }

    /** Reads one message, checking every length against what is left. */
    public static final class In {
        private final ByteBuffer buffer;

        public In(byte[] message) {
            this.buffer = ByteBuffer.wrap(message);
        }

        public int readInt() {
            need(4);
            return buffer.getInt();
        }

        public long readLong() {
            need(8);
            return buffer.getLong();
        }

        public boolean readBoolean() { return readInt() != 0; }

        public String readString() {
            int length = readInt();
            if (length == -1) return null;
            if (length < 0) throw new WireException("a string of length " + length);
            need(length);
            String text = new String(buffer.array(), buffer.arrayOffset() + buffer.position(), length, StandardCharsets.UTF_8);
            buffer.position(buffer.position() + length);
            return text;
        }

        /** A string that must be there. */
        public String readText(String what) {
            String text = readString();
            if (text == null) throw new WireException(what + " is missing");
            return text;
        }

        public List<String> readStrings() {
            int count = count(4);
            List<String> texts = new ArrayList<>(count);
            for (int i = 0; i < count; i++) texts.add(readText("a list's string"));
            return texts;
        }

        /** A count of elements each at least {@code minimumSize} bytes long, checked against what is left. */
        public int count(int minimumSize) {
            int count = readInt();
            if (count < 0 || (long) count * minimumSize > buffer.remaining()) {
                throw new WireException("a count of " + count + " with " + buffer.remaining() + " bytes left");
            }
            return count;
        }

        public Object readValue() {
            return readValue(0);
        }

        /** A map value: the map read, or a {@link WireException} when the value is not one. */
        @SuppressWarnings("unchecked")
        public Map<String, Object> readMap() {
            if (readValue() instanceof Map<?, ?> map) return (Map<String, Object>) map;
            throw new WireException("expected a map");
        }

        private Object readValue(int depth) {
            if (depth > MAX_DEPTH) throw new WireException("values nested deeper than " + MAX_DEPTH);
            need(1);
            byte tag = buffer.get();
            switch (tag) {
                case NULL: return null;
                case STRING: return readText("a string");
                case LONG: return readLong();
                case DOUBLE:
                    need(8);
                    return buffer.getDouble();
                case TRUE: return Boolean.TRUE;
                case FALSE: return Boolean.FALSE;
                case MAP: {
                    int count = count(5);
                    Map<String, Object> map = new LinkedHashMap<>(Math.max(4, count * 4 / 3 + 1));
                    for (int i = 0; i < count; i++) {
                        String key = readText("a map's key");
                        map.put(key, readValue(depth + 1));
                    }
                    return map;
                }
                case LIST: {
                    int count = count(1);
                    List<Object> list = new ArrayList<>(count);
                    for (int i = 0; i < count; i++) list.add(readValue(depth + 1));
                    return list;
                }
                case BIG_INTEGER: return number(() -> new BigInteger(digits()));
                case BIG_DECIMAL: return number(() -> new BigDecimal(digits()));
                case CHARACTER:
                    need(2);
                    return buffer.getChar();
                default: throw new WireException("unknown value tag " + tag);
            }
        }

        /** Whether every byte was read: a message with bytes left over is malformed. */
        public void end() {
            if (buffer.hasRemaining()) throw new WireException(buffer.remaining() + " bytes left over");
        }

        /** A big number's text, at most {@value #MAX_DIGITS} characters: parsing a longer one costs more than it is worth. */
        private String digits() {
            String text = readText("a number");
            if (text.length() > MAX_DIGITS) throw new WireException("a number of " + text.length() + " digits");
            return text;
        }

        private static Object number(java.util.function.Supplier<Number> parse) {
            try {
                return parse.get();
            } catch (NumberFormatException e) {
                throw new WireException("not a number: " + e.getMessage());
            }
        }

        private void need(int bytes) {
            if (buffer.remaining() < bytes) throw new WireException("the message ends early");
        }
    }
}
