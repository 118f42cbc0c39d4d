package dev.runbook.engine.bundle;

import dev.runbook.rules.fact.Params;

import java.util.LinkedHashMap;
import java.util.Map;

/** The bundle's parameter defaults with overrides applied and checked against each parameter's type. */
public final class ParameterValues {
    private ParameterValues() {}

    /**
     * @throws IllegalArgumentException naming the parameter: unknown, or a value of the wrong type
     */
    public static Params resolve(BundleSpec spec, Map<String, ?> overrides) {
        Map<String, Object> values = new LinkedHashMap<>();
        spec.parameters().forEach((name, parameter) -> values.put(name, parameter.defaultValue()));
        overrides.forEach((name, value) -> {
            Parameter parameter = spec.parameters().get(name);
            if (parameter == null) {
                throw new IllegalArgumentException("unknown parameter '" + name + "': bundle " + spec.name()
                        + " declares " + spec.parameters().keySet());
            }
            try {
                values.put(name, parameter.convert(value));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("parameter '" + name + "' (" + parameter.type().name().toLowerCase()
                        + "): " + e.getMessage());
            }
        });
        return new Params(values);
    }
}
