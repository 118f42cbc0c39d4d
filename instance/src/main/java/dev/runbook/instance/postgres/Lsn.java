package dev.runbook.instance.postgres;

/** WAL positions in PostgreSQL's {@code X/Y} form (two hexadecimal halves of a 64-bit byte position). */
public final class Lsn {
    public static final long UNKNOWN = -1;

    private Lsn() {
    }

    public static long parse(String text) {
        if (text == null || text.isBlank()) {
            return UNKNOWN;
        }
        String t = text.trim();
        int slash = t.indexOf('/');
        try {
            if (slash < 0) {
                return Long.parseLong(t);
            }
            return (Long.parseLong(t.substring(0, slash), 16) << 32) | Long.parseLong(t.substring(slash + 1), 16);
        } catch (NumberFormatException e) {
            return UNKNOWN;
        }
    }

    public static String format(long position) {
        return Long.toHexString(position >>> 32).toUpperCase() + "/" + Long.toHexString(position & 0xFFFFFFFFL).toUpperCase();
    }
}
