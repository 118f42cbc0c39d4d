package dev.runbook.engine.template;

/**
 * {@code yaml.quote(value)} in templates: the value as one double-quoted YAML scalar (a JSON string,
 * which YAML reads as the same string), so that whatever a user put in the spec ({@code {evil: 1}}, a
 * line break and more keys) renders as a single string and never as YAML structure. Quote every value
 * a template takes from the spec or a rule that the CRD's schema does not pin down to a number.
 */
public final class YamlQuote {
    public static final YamlQuote INSTANCE = new YamlQuote();

    private YamlQuote() {}

    public String quote(Object value) {
        String text = String.valueOf(value);
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f || c == 0x85 || c == 0x2028 || c == 0x2029) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
