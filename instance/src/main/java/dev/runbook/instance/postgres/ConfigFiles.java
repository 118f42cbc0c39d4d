package dev.runbook.instance.postgres;

import dev.runbook.instance.address.Address;
import dev.runbook.instance.config.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;

/**
 * The files the instance manager owns: its settings in the data directory ({@code runbook.conf},
 * {@code runbook-standby.conf}, {@code pg_hba.conf}, {@code standby.signal}) and, outside it, the
 * passfile the tools and the standby's walreceiver read the password from.
 */
public final class ConfigFiles {
    static final String SETTINGS = "runbook.conf";
    static final String STANDBY = "runbook-standby.conf";
    /** WAL archiving to the object store (written before every start; see backup.WalArchiving). */
    public static final String ARCHIVE = "runbook-archive.conf";
    /** restore_command and the recovery target while a restored instance recovers (see backup.Restorer). */
    public static final String RECOVERY = "runbook-recovery.conf";
    /** TLS: the server certificate this instance issued itself at its start (see tls.ClusterCa). */
    public static final String TLS = "runbook-tls.conf";
    private static final List<String> INCLUDED = List.of(SETTINGS, STANDBY, ARCHIVE, RECOVERY, TLS);
    private static final String UPSTREAM_MARK = "# upstream: ";

    private final Settings settings;

    public ConfigFiles(Settings settings) {
        this.settings = settings;
    }

    public Path passFile() {
        return settings.runDir().resolve("pgpass");
    }

    public Path serverLog() {
        return settings.runDir().resolve("postgresql.log");
    }

    /** The run directory and the passfile, both readable by this user only. */
    public void prepareRunDirectory() {
        try {
            Files.createDirectories(settings.runDir());
            Files.setPosixFilePermissions(settings.runDir(), PosixFilePermissions.fromString("rwx------"));
            writePrivate(passFile(), "*:*:*:" + Settings.SUPERUSER + ":" + escape(settings.password()) + "\n"
                    + "*:*:*:" + ReplicationRole.USER + ":" + escape(replicationPassword()) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the run directory " + settings.runDir(), e);
        }
    }

    public Path writePasswordFile() {
        Path file = settings.runDir().resolve("initdb-password");
        writePrivate(file, settings.password() + "\n");
        return file;
    }

    /** After initdb: replication and the settings every instance of the cluster shares. */
    public void writeInitialSettings() {
        writeInitialSettings(settings.dataDir());
    }

    /**
     * The settings every instance of the cluster shares, into {@code data}: after initdb, and over a
     * restored copy of another cluster's data directory (its cluster_name and pg_hba.conf are replaced).
     */
    public void writeInitialSettings(Path data) {
        ensureIncludes(data);
        write(data.resolve(SETTINGS), String.join("\n",
                "# Written by the instance manager at initdb; copied to every replica with the data.",
                "cluster_name = '" + settings.qualifiedClusterName() + "'",
                "wal_level = replica",
                "max_wal_senders = 10",
                "max_replication_slots = 10",
                "wal_keep_size = '512MB'",
                "hot_standby = on",
                "hot_standby_feedback = on",
                "wal_log_hints = on",
                "recovery_target_timeline = 'latest'",
                ""));
        writeHba(data);
    }

    /**
     * Who may connect how: passwords (SCRAM) for everyone; replication only as {@code streaming_replica}
     * and only over TLS, and that role nowhere else (it reads the source's files for pg_rewind from the
     * database {@code postgres}). The first matching line decides. Written at initdb and at every start
     * (a data directory made by an older instance manager gets it too).
     */
    public void writeHba(Path data) {
        write(data.resolve("pg_hba.conf"), String.join("\n",
                "# Written by the instance manager (docs/instance-manager.md#tls-and-the-replication-role).",
                "local   all          all                                 scram-sha-256",
                "hostssl replication  " + ReplicationRole.USER + "   0.0.0.0/0    scram-sha-256",
                "hostssl replication  " + ReplicationRole.USER + "   ::/0         scram-sha-256",
                "hostssl postgres     " + ReplicationRole.USER + "   0.0.0.0/0    scram-sha-256",
                "hostssl postgres     " + ReplicationRole.USER + "   ::/0         scram-sha-256",
                "host    replication  all                 0.0.0.0/0    reject",
                "host    replication  all                 ::/0         reject",
                "host    all          " + ReplicationRole.USER + "   0.0.0.0/0    reject",
                "host    all          " + ReplicationRole.USER + "   ::/0         reject",
                "host    all          all                 0.0.0.0/0    scram-sha-256",
                "host    all          all                 ::/0         scram-sha-256",
                ""));
    }

    /** The server's TLS: its certificate and key (in the private run directory) and the cluster's authority. */
    public void writeTls(Path data, Path certificate, Path key, Path ca) {
        write(data.resolve(TLS), String.join("\n",
                "# Written by the instance manager at every start: its own certificate, from the cluster's authority.",
                "ssl = on",
                "ssl_cert_file = '" + certificate + "'",
                "ssl_key_file = '" + key + "'",
                "ssl_ca_file = '" + ca + "'",
                "ssl_min_protocol_version = 'TLSv1.2'",
                ""));
    }

    /** No authority in this data directory yet (a standby that will get it with its next copy or rewind): no TLS served. */
    public void writeTlsOff(Path data) {
        write(data.resolve(TLS), "# Written by the instance manager: no certificate authority in this data directory yet.\nssl = off\n");
    }

    /** The password {@code streaming_replica} logs in with (see ReplicationRole). */
    public String replicationPassword() {
        return ReplicationRole.password(settings.password(), settings.qualifiedClusterName());
    }

    /** Makes the next start a standby of {@code upstream} at {@code address}, on the slot the primary keeps for this instance. */
    public void writeStandby(String upstream, Address address) {
        write(settings.dataDir().resolve(STANDBY), String.join("\n",
                UPSTREAM_MARK + upstream,
                "primary_conninfo = '" + conninfo(address, settings.podName()) + "'",
                "primary_slot_name = '" + ReplicationRole.slotOf(settings.podName()) + "'",
                ""));
        write(settings.dataDir().resolve("standby.signal"), "");
    }

    /** A primary follows nobody: no standby.signal, no upstream (so a later rejoin always rewinds). */
    public void clearStandby() {
        deleteQuietly(settings.dataDir().resolve("standby.signal"));
        deleteQuietly(settings.dataDir().resolve(STANDBY));
    }

    public String upstream() {
        Path file = settings.dataDir().resolve(STANDBY);
        try {
            if (!Files.exists(file)) {
                return "";
            }
            Optional<String> mark = Files.readAllLines(file).stream().filter(l -> l.startsWith(UPSTREAM_MARK)).findFirst();
            return mark.map(l -> l.substring(UPSTREAM_MARK.length()).trim()).orElse("");
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * How this instance connects to another for replication, pg_rewind and pg_basebackup: as
     * {@code streaming_replica}, over TLS, the server's certificate checked against the cluster's
     * authority when this data directory has it ({@code verify-full}); before the first copy it has
     * not, and SCRAM bound to the TLS channel ({@code channel_binding=require}) then makes sure the
     * server knows the password: a server that does not cannot stand in for the primary.
     */
    public String conninfo(Address address, String applicationName) {
        Path ca = settings.dataDir().resolve(dev.runbook.instance.tls.ClusterCa.DIR).resolve("ca.crt");
        String tls = Files.isRegularFile(ca) ? " sslmode=verify-full sslrootcert=" + ca : " sslmode=require";
        return "host=" + address.host() + " port=" + address.port() + " user=" + ReplicationRole.USER + " dbname=postgres"
                + " passfile=" + passFile() + tls + " channel_binding=require application_name=" + applicationName + " connect_timeout=5";
    }

    /** postgresql.conf includes the instance manager's files, each once (a restored one may have some already). */
    public void ensureIncludes(Path data) {
        Path conf = data.resolve("postgresql.conf");
        try {
            String text = Files.exists(conf) ? Files.readString(conf) : "";
            StringBuilder missing = new StringBuilder();
            for (String file : INCLUDED) {
                String line = "include_if_exists = '" + file + "'";
                if (!text.contains(line)) {
                    missing.append(line).append('\n');
                }
            }
            if (missing.length() > 0) {
                Files.writeString(conf, "\n" + missing, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + conf, e);
        }
    }

    /** A file only this user can read (a password, credentials, SQL with a password in it). */
    public void writePrivateFile(Path file, String text) {
        writePrivate(file, text);
    }

    public void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a leftover file in the private run directory is harmless
        }
    }

    private static String escape(String password) {
        return password.replace("\\", "\\\\").replace(":", "\\:");
    }

    private static void writePrivate(Path file, String text) {
        try {
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    public static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
