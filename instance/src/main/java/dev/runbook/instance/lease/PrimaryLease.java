package dev.runbook.instance.lease;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * The primary's lease: how long its server may go on taking writes without the API server having
 * confirmed that this instance is still the one to be primary. The deadline is kept in a file of the
 * private run directory, on the {@link Uptime} clock, so that the watchdog (a process of its own,
 * {@link LeaseWatchdog}) kills the server once it has passed even while the manager cannot act.
 *
 * <p>The deadline counts from the moment the confirming read was <em>sent</em>: any read that saw
 * this instance still entitled was answered before a promotion of another was recorded, so no lease
 * outlives that record by more than its duration (docs/instance-manager.md#fencing).
 */
public final class PrimaryLease {
    public static final String FILE = "primary-lease";

    private final Path file;
    private final Uptime uptime;

    public PrimaryLease(Path runDir, Uptime uptime) {
        this.file = runDir.resolve(FILE);
        this.uptime = uptime;
    }

    public Path file() {
        return file;
    }

    /** Confirmed at {@code confirmedAt} (centiseconds of uptime): writes may go on for {@code duration} from then. */
    public synchronized void renew(long confirmedAt, Duration duration) {
        long deadline = confirmedAt + duration.toMillis() / 10;
        Path tmp = file.resolveSibling(FILE + ".tmp");
        try {
            Files.writeString(tmp, deadline + "\n");
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the lease " + file, e);
        }
    }

    /** As {@link #renew}, only when a lease is held: the renewing thread never takes one the pass dropped. */
    public synchronized void renewIfHeld(long confirmedAt, Duration duration) {
        if (Files.exists(file)) {
            renew(confirmedAt, duration);
        }
    }

    /** No server of this instance may take writes: nothing for the watchdog to enforce. */
    public synchronized void release() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the lease " + file, e);
        }
    }

    /** The deadline, if a lease is held (passed or not). */
    public OptionalLong deadline() {
        try {
            return Files.exists(file) ? OptionalLong.of(Long.parseLong(Files.readString(file).trim())) : OptionalLong.empty();
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** A lease is held and its deadline has not passed. */
    public boolean current() {
        OptionalLong deadline = deadline();
        return deadline.isPresent() && uptime.centiseconds() <= deadline.getAsLong();
    }
}
