package dev.runbook.engine.state;

import dev.runbook.engine.bundle.BundleSpec;
import dev.runbook.engine.bundle.Kind;
import dev.runbook.engine.decide.Observation;
import dev.runbook.engine.problem.InvalidInputException;
import dev.runbook.rules.fact.Primary;
import dev.runbook.rules.fact.Resource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns objects read from state files into an {@link Observation} for a bundle: the object of the
 * bundle's primary kind becomes the {@link Primary}, every other object a {@link Resource}.
 */
public final class ObservationBuilder {
    private ObservationBuilder() {}

    /**
     * @param primaryName which primary to reconcile when the state holds several; may be null
     */
    public static Observation build(BundleSpec spec, List<ObservedObject> objects, String primaryName,
                                    Instant now, Map<String, ?> overrides) {
        Kind kind = spec.primary().kind();
        List<ObservedObject> primaries = objects.stream()
                .filter(o -> kind.matches(o.apiVersion(), o.kind()))
                .filter(o -> primaryName == null || primaryName.equals(o.name()))
                .toList();
        if (primaries.isEmpty()) {
            String where = objects.isEmpty() ? "the state files" : objects.get(0).file();
            throw new InvalidInputException(dev.runbook.engine.problem.Problem.inFile(where,
                    "no " + kind + (primaryName == null ? "" : " named " + primaryName)
                            + " in the state: the bundle " + spec.name() + " reconciles that kind, so the state must hold one"));
        }
        if (primaries.size() > 1) {
            throw new InvalidInputException(primaries.get(1).problem("the state holds several " + kind.kind() + " objects ("
                    + String.join(", ", primaries.stream().map(ObservedObject::name).toList())
                    + "): choose one with --primary NAME"));
        }
        ObservedObject chosen = primaries.get(0);
        Primary primary = convert(chosen, Primary::new);
        List<Resource> secondaries = new ArrayList<>();
        for (ObservedObject object : objects) {
            if (object != chosen) secondaries.add(convert(object, Resource::new));
        }
        return new Observation(primary, secondaries, now, overrides);
    }

    private static <T extends Resource> T convert(ObservedObject object, java.util.function.Function<Map<String, Object>, T> factory) {
        try {
            return factory.apply(object.object());
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException(object.problem(object.kind() + " " + object.name() + ": " + e.getMessage()));
        }
    }
}
