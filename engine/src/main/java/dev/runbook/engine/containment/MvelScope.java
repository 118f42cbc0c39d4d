package dev.runbook.engine.containment;

import java.util.HashMap;
import java.util.Map;

/**
 * What the names of one MVEL expression refer to, for the member check: the fact type of the
 * pattern whose constraint it is, the rule's bindings so far, the package's globals and functions,
 * a template's variables. Bindings are shared by the scopes of one rule (a binding made in one
 * pattern is used in the next); the rest is fixed.
 */
final class MvelScope {
    /** A template: any name that is not otherwise known is one of the rule's variables (a value of an observed object). */
    final boolean template;
    /** False inside {@code eval(...)}: Java, checked as bytecode; only reflective names are refused there. */
    final boolean typed;
    /** The pattern's fact type, whose fields and methods a bare name reaches; null outside a pattern. */
    final StaticType pattern;
    private final Map<String, StaticType> bindings;
    /** Globals, and the names a package's functions are called by (a DRL function's return type, an imported method's class). */
    private final Map<String, StaticType> globals;
    private final Map<String, StaticType> functions;

    private MvelScope(boolean template, boolean typed, StaticType pattern, Map<String, StaticType> bindings,
                      Map<String, StaticType> globals, Map<String, StaticType> functions) {
        this.template = template;
        this.typed = typed;
        this.pattern = pattern;
        this.bindings = bindings;
        this.globals = globals;
        this.functions = functions;
    }

    /** A rule's, query's or declared default's scope: no bindings yet. */
    static MvelScope rule(Map<String, StaticType> globals, Map<String, StaticType> functions) {
        return new MvelScope(false, true, null, new HashMap<>(), globals, functions);
    }

    /** A template's scope: {@code variables} are what the renderer passes besides the rule's own. */
    static MvelScope template(Map<String, StaticType> variables) {
        return new MvelScope(true, true, null, new HashMap<>(variables), Map.of(), Map.of());
    }

    MvelScope inPattern(StaticType type) {
        return new MvelScope(template, typed, type, bindings, globals, functions);
    }

    MvelScope untyped() {
        return new MvelScope(template, false, pattern, bindings, globals, functions);
    }

    /**
     * Binds {@code name}; a name bound again holds either type ({@code $x : A() or $x : B()}, or
     * what only looks like a binding: {@code c ? $x : y}), so a member must be allowed on both.
     */
    void bind(String name, StaticType type) {
        StaticType bound = type == null ? new StaticType.Unknown("the value bound to " + name) : type;
        StaticType before = bindings.get(name);
        bindings.put(name, before == null ? bound : StaticType.union(java.util.List.of(before, bound)));
    }

    /** A binding, a variable or a global named {@code name}, else null. */
    StaticType variable(String name) {
        StaticType bound = bindings.get(name);
        return bound != null ? bound : globals.get(name);
    }

    /** What a call of {@code name(...)} returns when it is a package's function: a type, or a ClassRef to call it on. */
    StaticType function(String name) {
        return functions.get(name);
    }
}
