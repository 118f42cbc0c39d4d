package dev.runbook.operator.shard;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.runbook.operator.cycle.CycleListener;
import dev.runbook.operator.record.CycleReport;
import dev.runbook.rules.fact.Primary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A diagnostic: every cycle this replica runs, appended to a file as one JSON line
 * ({@code {"member":..., "primary":..., "start":..., "end":...}}), so that a test or a benchmark with
 * replicas in separate processes can check "never two replicas acting on one primary" with
 * {@link DoubleActors} over all their files ({@link #read}). A cycle runs from its decision's start
 * (after observing, which reads caches only) to its record's end: every write a cycle makes lies in
 * between. The times are the replica's wall clock, so the files of replicas on one machine compare.
 * Each line is written and flushed as its cycle ends; a process killed mid-line leaves one broken last
 * line, which {@link #read} skips.
 */
public final class CycleJournal implements CycleListener, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CycleJournal.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String member;
    private final Clock clock;
    private final BufferedWriter out;
    private final ThreadLocal<Instant> started = new ThreadLocal<>();

    private CycleJournal(String member, Clock clock, BufferedWriter out) {
        this.member = member;
        this.clock = clock;
        this.out = out;
    }

    /** Appends the cycles of {@code member} to {@code file}, creating it. */
    public static CycleJournal open(Path file, String member, Clock clock) {
        try {
            return new CycleJournal(ShardLabels.requireMemberName(member), clock, Files.newBufferedWriter(file, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE));
        } catch (IOException e) {
            throw new UncheckedIOException("the cycle journal " + file + " cannot be opened for appending: " + e.getMessage(), e);
        }
    }

    @Override
    public void decisionStarted(Primary primary) { started.set(clock.instant()); }

    @Override
    public void cycleRecorded(Primary primary, CycleReport report) {
        Instant end = clock.instant();
        Instant start = started.get() == null ? end : started.get();
        started.remove();
        Map<String, String> line = new LinkedHashMap<>();
        line.put("member", member);
        line.put("primary", keyOf(primary));
        line.put("start", start.toString());
        line.put("end", end.toString());
        try {
            synchronized (out) {
                out.write(JSON.writeValueAsString(line));
                out.newLine();
                out.flush();
            }
        } catch (IOException e) {
            // A diagnostic: a full disk must not stop the cycles it records.
            LOG.warn("the cycle journal cannot be written: {}", e.getMessage());
        }
    }

    /** The hash key of a primary ({@link ShardLabels#keyOf}): the same string in every replica's file. */
    static String keyOf(Primary primary) {
        String apiVersion = primary.getApiVersion();
        String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        return ShardLabels.keyOf(group, primary.getKind(), primary.getNamespace(), primary.getName());
    }

    /** The cycles in {@code file}, skipping a last line cut short by a killed process. */
    public static List<DoubleActors.Cycle> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("the cycle journal " + file + " cannot be read: " + e.getMessage(), e);
        }
        List<DoubleActors.Cycle> cycles = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            try {
                Map<?, ?> line = JSON.readValue(lines.get(i), Map.class);
                cycles.add(new DoubleActors.Cycle((String) line.get("member"), (String) line.get("primary"),
                        Instant.parse((String) line.get("start")), Instant.parse((String) line.get("end"))));
            } catch (IOException | RuntimeException e) {
                if (i < lines.size() - 1) {
                    throw new IllegalArgumentException(file + ":" + (i + 1) + ": not a cycle record ({\"member\", \"primary\", "
                            + "\"start\", \"end\"}): " + e.getMessage(), e);
                }
            }
        }
        return cycles;
    }

    @Override
    public void close() {
        try {
            synchronized (out) {
                out.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the cycle journal cannot be closed: " + e.getMessage(), e);
        }
    }
}
