package dev.runbook.rules.fact;

import java.time.Duration;
import java.util.Map;

/**
 * The bundle's parameters for this cycle: the defaults from {@code bundle.yaml} with any overrides.
 * Asking for a parameter that the bundle does not declare is an error, since it is a typo in a rule.
 */
public final class Params {
    private final Map<String, Object> values;

    public Params(Map<String, ?> values) {
        // Frozen like an observed object: conditions and templates read these values without knowing their type.
        this.values = Values.frozenMap(values);
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

    public int integer(String name) { return Values.toInt(Values.asLong(required(name), "parameter " + name), "parameter " + name); }

    public boolean bool(String name) { return Values.asBoolean(required(name), "parameter " + name); }

    public Duration duration(String name) { return Values.asDuration(required(name), "parameter " + name); }

    public long seconds(String name) { return duration(name).getSeconds(); }

    /** A {@code quantity} parameter's exact value ({@code 1Gi} is 1073741824); see {@code Quantities}. */
    public java.math.BigDecimal quantity(String name) { return dev.runbook.rules.function.Quantities.parse(str(name)); }

    /** The value of a declared parameter for the typed getters, which cannot return null. */
    private Object required(String name) {
        Object value = get(name);
        if (value == null) {
            throw new IllegalArgumentException("parameter '" + name
                    + "' has no value: give it a default in bundle.yaml or override it");
        }
        return value;
    }

    @Override
    public String toString() { return "Params " + values; }
}
