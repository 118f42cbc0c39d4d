package dev.runbook.instance.act;

import dev.runbook.instance.address.Address;
import dev.runbook.instance.address.Addresses;
import dev.runbook.instance.config.Settings;
import dev.runbook.instance.decide.Decision;
import dev.runbook.instance.postgres.ConfigFiles;
import dev.runbook.instance.postgres.PgCommands;
import dev.runbook.instance.postgres.Sql;
import dev.runbook.instance.backup.Restorer;
import dev.runbook.instance.backup.WalArchiving;
import dev.runbook.instance.lease.LeaseWatchdog;
import dev.runbook.instance.postgres.ReplicationRole;
import dev.runbook.instance.tls.InstanceTls;
import java.sql.SQLException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out one {@link Decision}. Before it copies, rewinds onto or follows another server it
 * checks that server's identity: the same {@code cluster_name}, and for a data directory that
 * already exists the same system identifier. Anything else is {@link Refused}.
 */
public final class Actor {
    private static final Logger LOG = LoggerFactory.getLogger(Actor.class);

    private final Settings settings;
    private final PgCommands commands;
    private final ConfigFiles files;
    private final Sql sql;
    private final Addresses addresses;
    private final WalArchiving archiving;
    private final Optional<Restorer> restorer;
    private final LeaseWatchdog watchdog;
    private final InstanceTls tls;

    public Actor(Settings settings, PgCommands commands, ConfigFiles files, Sql sql, Addresses addresses, WalArchiving archiving,
                 Optional<Restorer> restorer, LeaseWatchdog watchdog, InstanceTls tls) {
        this.settings = settings;
        this.commands = commands;
        this.files = files;
        this.sql = sql;
        this.addresses = addresses;
        this.archiving = archiving;
        this.restorer = restorer;
        this.watchdog = watchdog;
        this.tls = tls;
    }

    public void act(Decision decision) {
        switch (decision.step()) {
            case WAIT -> { }
            case REFUSE -> throw new Refused(decision.why());
            case INITDB -> {
                LOG.info("initdb: {}", decision.why());
                commands.initdb();
                files.writeInitialSettings();
                startAsPrimary();
            }
            case RESTORE -> {
                LOG.info("restore: {}", decision.why());
                restorer.orElseThrow(() -> new IllegalStateException("a restore was decided, but no RECOVERY_DESTINATION_PATH is set")).restore();
            }
            case START_PRIMARY -> {
                LOG.info("start as primary: {}", decision.why());
                startAsPrimary();
                // Stopped half-way through a restore: it recovers again and is promoted; finish that.
                restorer.filter(Restorer::pending).ifPresent(Restorer::finish);
            }
            case START_STANDBY -> {
                LOG.info("start as standby: {}", decision.why());
                if (decision.upstream().isEmpty()) {
                    start(false);    // set to follow nobody yet: it starts as a standby of its own WAL
                    return;
                }
                Address address = addresses.of(decision.upstream());
                try {
                    checkSameSystem(decision.upstream(), address);
                } catch (Unreachable e) {
                    // A standby of a server that does not answer takes nothing from it, and its WAL receiver checks the
                    // system identifier itself when it connects: a promotion's target whose old primary is gone still starts.
                    LOG.info("starting as a standby of {} without checking it: {}", decision.upstream(), e.getMessage());
                }
                files.writeStandby(decision.upstream(), address);
                start(false);
            }
            case CLONE -> {
                LOG.info("clone: {}", decision.why());
                Address address = addresses.of(decision.upstream());
                checkVouched(checkSameCluster(decision.upstream(), address));
                commands.basebackup(address);
                files.writeStandby(decision.upstream(), address);
                start(false);
            }
            case REWIND -> {
                LOG.info("rewind: {}", decision.why());
                Address address = addresses.of(decision.upstream());
                checkSameSystem(decision.upstream(), address);
                // A standby killed while it ran is recovered by pg_rewind in single-user mode first, which refuses
                // standby mode: the signal goes, and the standby settings are written again after the rewind.
                files.clearStandby();
                commands.rewind(files.conninfo(address, settings.podName()));
                files.writeStandby(decision.upstream(), address);
                start(false);
            }
            case PROMOTE -> {
                LOG.info("promote: {}", decision.why());
                commands.promote();
                files.clearStandby();
                checkpoint();
                // A standby that had no authority (its data predates it) makes the cluster's now; the new primary's
                // pg_hba.conf and certificate take effect without a restart.
                tls.prepare(true);
                files.writeHba(settings.dataDir());
                commands.reload();
            }
            case SET_SYNCHRONOUS -> {
                LOG.info("synchronous_standby_names: {}", decision.why());
                try {
                    sql.setStandbyNames(decision.standbyNames());
                } catch (SQLException e) {
                    throw new IllegalStateException("cannot set synchronous_standby_names: " + e.getMessage(), e);
                }
            }
            case STOP -> {
                LOG.info("stop: {}", decision.why());
                commands.stop();
            }
            case ENSURE_REPLICATION_ROLE -> {
                LOG.info("replication role: {}", decision.why());
                String password = files.replicationPassword();
                try {
                    sql.ensureReplicationRole(password, ReplicationRole.mark(password));
                } catch (SQLException e) {
                    throw new IllegalStateException("cannot set up the replication role: " + e.getMessage(), e);
                }
            }
            case SYNC_SLOTS -> {
                LOG.info("replication slots: {}", decision.why());
                try {
                    sql.syncSlots(decision.slots());
                } catch (SQLException e) {
                    throw new IllegalStateException("cannot keep the replication slots: " + e.getMessage(), e);
                }
            }
            case KILL -> {
                LOG.warn("kill: {}", decision.why());
                watchdog.killServer();
            }
        }
    }

    private void startAsPrimary() {
        files.clearStandby();
        start(true);
    }

    /**
     * Every start: WAL archiving as the pod says now (this instance's own run directory, its own
     * store), its own TLS certificate, and pg_hba.conf as this instance manager writes it.
     */
    private void start(boolean asPrimary) {
        archiving.configure(settings.dataDir());
        tls.prepare(asPrimary);
        files.writeHba(settings.dataDir());
        commands.start();
    }

    private void checkpoint() {
        try {
            sql.checkpoint();
        } catch (SQLException e) {
            LOG.warn("checkpoint after promotion failed ({}); pg_rewind of the former primary may need another", e.getMessage());
        }
    }

    private Sql.Identity identityOf(String upstream, Address address) {
        try {
            return sql.identity(address);
        } catch (SQLException e) {
            if (Sql.certificateRejected(e)) {
                // Not signed by the authority in this data directory: say what the server is before refusing it, so
                // that a data directory of another cluster is named as such (checkSameCluster, checkSameSystem).
                return unverifiedIdentity(upstream, address, e);
            }
            throw new Unreachable("cannot reach " + upstream + " at " + address + ": " + e.getMessage(), e);
        }
    }

    private Sql.Identity unverifiedIdentity(String upstream, Address address, SQLException rejected) {
        Sql.Identity identity;
        try {
            identity = sql.identityUnverified(address);
        } catch (SQLException e) {
            throw new Unreachable("cannot reach " + upstream + " at " + address + ": " + rejected.getMessage(), rejected);
        }
        return new Sql.Identity(identity.clusterName(), identity.systemIdentifier(), upstream + " at " + address
                + " presents a certificate that the cluster's authority in this data directory did not sign ("
                + rejected.getMessage() + "); nothing is copied, rewound or followed");
    }

    /** The server to copy, rewind onto or follow does not answer: nothing was checked. */
    private static final class Unreachable extends IllegalStateException {
        Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private Sql.Identity checkSameCluster(String upstream, Address address) {
        Sql.Identity identity = identityOf(upstream, address);
        if (!settings.qualifiedClusterName().equals(identity.clusterName())) {
            throw new Refused(upstream + " at " + address + " serves the cluster '" + identity.clusterName() + "', not '"
                    + settings.qualifiedClusterName() + "'; this instance follows no primary of another cluster");
        }
        return identity;
    }

    /** The identity's own doubt, once what it says was compared: a server the authority did not vouch for is refused. */
    private static void checkVouched(Sql.Identity identity) {
        if (!identity.unverified().isEmpty()) {
            throw new Refused(identity.unverified());
        }
    }

    private void checkSameSystem(String upstream, Address address) {
        Sql.Identity identity = checkSameCluster(upstream, address);
        String mine = commands.controlData().getOrDefault("Database system identifier", "");
        if (!mine.equals(identity.systemIdentifier())) {
            throw new Refused(upstream + " at " + address + " has the system identifier " + identity.systemIdentifier()
                    + ", but this data directory has " + mine + ": they are different databases; nothing is rewound or followed");
        }
        checkVouched(identity);
    }
}
