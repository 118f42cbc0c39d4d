package dev.runbook.rules.fact;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The bundle's parameters for this cycle: the defaults from {@code bundle.yaml} with any overrides.
 * Asking for a parameter that the bundle does not declare is an error, since it is a typo in a rule.
 */
public final class Params {
    private final Map<String, Object> values;

    public Params(Map<String, ?> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public Map<String, Object> getValues() { return values; }

    public Object get(String name) {
        if (!values.containsKey(name)) {
            throw new IllegalArgumentException("unknown parameter '" + name
                    + "': declare it under parameters in bundle.yaml (declared: " + values.keySet() + ")");
        }
        return values.get(name);
    }

    public String str(String name) { return Values.asString(get(name)); }

    public int integer(String name) { return Math.toIntExact(Values.asLong(get(name), "parameter " + name)); }

    public boolean bool(String name) { return Values.asBoolean(get(name), "parameter " + name); }

    public Duration duration(String name) { return Values.asDuration(get(name), "parameter " + name); }

    public long seconds(String name) { return duration(name).getSeconds(); }

    @Override
    public String toString() { return "Params " + values; }
}
