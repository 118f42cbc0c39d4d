package dev.runbook.testkit.explore.fault;

import dev.runbook.testkit.explore.Drawn;
import dev.runbook.testkit.explore.Fault;
import dev.runbook.testkit.explore.Pick;
import dev.runbook.testkit.explore.World;

import java.util.Optional;
import java.util.random.RandomGenerator;

import java.util.List;

/** An annotation of a pod gets a value nobody expects: empty, text where a number belongs, a huge number. */
public final class AnnotationGarbled implements Fault {
    private static final List<String> GARBAGE = List.of("", "garbled", "-1", "99999999999999999999999");

    @Override public String name() { return "annotation garbled"; }

    @Override
    public Optional<Drawn> draw(World world, RandomGenerator random) {
        return Pick.one(world.livePods().stream().filter(p -> !p.getAnnotations().isEmpty()).toList(), random).map(pod -> {
            String key = pod.getAnnotations().keySet().stream().sorted().toList().get(random.nextInt(pod.getAnnotations().size()));
            String value = GARBAGE.get(random.nextInt(GARBAGE.size()));
            return Drawn.of("the annotation " + key + " of " + pod.getName() + " reads '" + value + "'",
                    Drawn.annotate("Pod", pod.getName(), key, value));
        });
    }
}
