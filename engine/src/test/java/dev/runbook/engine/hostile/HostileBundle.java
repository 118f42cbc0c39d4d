package dev.runbook.engine.hostile;

import dev.runbook.engine.TestBundles;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.stream.Stream;

/**
 * One bundle of the hostile corpus (src/test/resources/bundles/hostile, its README.md has the table):
 * a route out of what rules may do, in one placement, with where its refusal must point and what its
 * payload does. Tests of every tier (the compiler, the commands, the operator's vetting, an isolated
 * worker) read the corpus through this class.
 *
 * @param refusedAt  {@code file:line} the first problem must name
 * @param mentions   text the first problem's message must hold (the refused member, annotation or keyword)
 * @param payload    {@code marker} (creates {@link #marker()} in the working directory), {@code zone} (sets the
 *                   JVM's default time zone to {@link #ZONE}), {@code spin}, {@code sleep}, {@code oom} or {@code none}
 */
public record HostileBundle(String name, Path directory, String route, String placement, String refusedAt, String mentions,
                            String payload) {
    /** The zone a {@code zone} payload sets. */
    public static final String ZONE = "Pacific/Chatham";

    /** The corpus as this module's tests see it (on the class path). */
    public static List<HostileBundle> all() {
        return all(TestBundles.directory("hostile/invoker-name-in-consequence").getParent());
    }

    /** The corpus in {@code root} (engine/src/test/resources/bundles/hostile, for other modules' tests). */
    public static List<HostileBundle> all(Path root) {
        try (Stream<Path> dirs = Files.list(root)) {
            return dirs.filter(Files::isDirectory).sorted().map(HostileBundle::read).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static HostileBundle named(String name) {
        return read(TestBundles.directory("hostile/" + name));
    }

    private static HostileBundle read(Path directory) {
        try {
            Map<String, Object> meta = new Yaml().load(Files.readString(directory.resolve("hostile.yaml")));
            return new HostileBundle(directory.getFileName().toString(), directory, (String) meta.get("route"),
                    (String) meta.get("placement"), (String) meta.get("refusedAt"), String.valueOf(meta.get("mentions")),
                    (String) meta.get("payload"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file a {@code marker} payload creates, relative to the working directory. */
    public Path marker() {
        return Path.of("runbook-hostile-" + name);
    }

    /** Whether the payload's effect can be seen when it ran (and it ends): a marker file, or the JVM's zone. */
    public boolean observable() {
        return payload.equals("marker") || payload.equals("zone");
    }

    /** Whether its payload ran since {@link #reset()}: its marker exists, or the JVM's zone is the payload's. */
    public boolean payloadRan() {
        return payload.equals("marker") ? Files.exists(marker())
                : payload.equals("zone") && TimeZone.getDefault().getID().equals(ZONE);
    }

    /** Undoes what the payload may have done (deletes the marker, sets the zone back to {@code zone}). */
    public void reset(TimeZone zone) {
        try {
            Files.deleteIfExists(marker());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        TimeZone.setDefault(zone);
    }

    @Override
    public String toString() { return name; }
}
