package dev.runbook.engine.containment;

/** DRL source with its comments blanked out, offsets and line breaks kept. */
final class Comments {
    private Comments() {}

    static String blank(String source) {
        StringBuilder out = new StringBuilder(source);
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && source.charAt(j) != c && source.charAt(j) != '\n') j += source.charAt(j) == '\\' ? 2 : 1;
                i = j + 1;
            } else if (c == '/' && i + 1 < n && source.charAt(i + 1) == '/') {
                while (i < n && source.charAt(i) != '\n') out.setCharAt(i++, ' ');
            } else if (c == '/' && i + 1 < n && source.charAt(i + 1) == '*') {
                int end = source.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                for (; i < end; i++) if (source.charAt(i) != '\n') out.setCharAt(i, ' ');
            } else {
                i++;
            }
        }
        return out.toString();
    }
}
