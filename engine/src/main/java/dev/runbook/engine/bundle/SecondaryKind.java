package dev.runbook.engine.bundle;

import java.util.Map;

/**
 * A kind the bundle's rules observe besides the primary, and how an object of it maps to its
 * primary: by owner reference, or by labels whose values may name the primary as {@code {name}}.
 */
public record SecondaryKind(Kind kind, Mapping mapping, Map<String, String> selector) {
    public enum Mapping { OWNER, LABELS }
}
