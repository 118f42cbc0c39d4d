package dev.runbook.instance.tls;

import dev.runbook.instance.address.Addresses;
import dev.runbook.instance.config.Settings;
import dev.runbook.instance.postgres.ConfigFiles;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The server's TLS, set before every start: a primary without an authority makes the cluster's
 * (the first primary, at initdb; one whose data predates it); an instance with one issues itself a
 * server certificate for every name it is reached by and writes {@code runbook-tls.conf}. A standby
 * without one serves no TLS until its next copy or rewind brings the authority; it still connects to
 * the primary over TLS ({@link ConfigFiles#conninfo}).
 */
public final class InstanceTls {
    private final Settings settings;
    private final ConfigFiles files;
    private final Addresses addresses;
    private final Clock clock;

    public InstanceTls(Settings settings, ConfigFiles files, Addresses addresses, Clock clock) {
        this.settings = settings;
        this.files = files;
        this.addresses = addresses;
        this.clock = clock;
    }

    /** {@code asPrimary}: the server starts (or has just been promoted) as the primary, which may make the authority. */
    public void prepare(boolean asPrimary) {
        ClusterCa ca = new ClusterCa(settings.dataDir());
        if (!ca.exists() && asPrimary) {
            ca.create(settings.qualifiedClusterName(), clock.instant());
        }
        if (!ca.exists()) {
            files.writeTlsOff(settings.dataDir());
            return;
        }
        Path certificate = settings.runDir().resolve("server.crt");
        Path key = settings.runDir().resolve("server.key");
        ca.issueServer(settings.podName(), names(), certificate, key, clock.instant());
        files.writeTls(settings.dataDir(), certificate, key, ca.certificate());
    }

    /** Every name a client may reach this server by: the headless service's, short and long, and the address the others resolve. */
    List<String> names() {
        String service = settings.podName() + "." + settings.clusterName() + "-instances";
        Set<String> names = new LinkedHashSet<>(List.of(service + "." + settings.namespace() + ".svc", service + "." + settings.namespace(),
                service, service + "." + settings.namespace() + ".svc.cluster.local", settings.podName(), "localhost", "127.0.0.1"));
        names.add(addresses.of(settings.podName()).host());
        return List.copyOf(names);
    }
}
