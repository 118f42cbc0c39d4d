package dev.runbook.instance.lease;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The clock the lease is kept on: seconds since the machine booted, in hundredths, as
 * {@code /proc/uptime} says. It never steps (the wall clock may, under NTP), and the watchdog, a shell
 * script, reads the same file, so the manager and the watchdog compare deadlines on one clock.
 */
@FunctionalInterface
public interface Uptime {
    long centiseconds();

    /** Linux's {@code /proc/uptime}: "12345.67 54321.00", the first figure always with two decimals. */
    static Uptime system() {
        Path file = Path.of("/proc/uptime");
        return () -> {
            try {
                String first = Files.readString(file).trim().split("\\s+")[0];
                return Long.parseLong(first.replace(".", ""));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        };
    }
}
