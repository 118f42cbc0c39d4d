package dev.runbook.operator.reload;

import dev.runbook.engine.decide.DecidingBundle;
import dev.runbook.operator.controller.BundleRefusedException;
import dev.runbook.operator.error.RootCause;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the operator accepted before, made ready to run again: on start and on taking the Lease, before
 * any controller starts, each bundle ConfigMap's last accepted copy ({@link AcceptedBundles}) is vetted
 * again (the operator may be newer than the one that accepted it) and handed to the controllers as the
 * bundle they start with. So no cycle runs the image's bundle, or nothing, while a ConfigMap that was
 * refused is looked at again. Copies whose ConfigMap is gone, or was deleted and created anew, are
 * deleted.
 */
public final class LastAccepted {
    private static final Logger LOG = LoggerFactory.getLogger(LastAccepted.class);

    /** A bundle accepted before from a ConfigMap, compiled and vetted again, with the hash of that ConfigMap content. */
    public record Restored(String source, String contentHash, DecidingBundle bundle) {}

    private LastAccepted() {}

    /** The copies that can run, in the order of their ConfigMaps' names. */
    public static List<Restored> restore(KubernetesClient client, String namespace, dev.runbook.engine.policy.Policy policy) {
        return restore(client, namespace, new BundleVetting(policy));
    }

    /** As above, asking {@code vetting} (the operator's own verdicts) for each copy's. */
    public static List<Restored> restore(KubernetesClient client, String namespace, ContentVetting vetting) {
        return restore(client, namespace, vetting, true);
    }

    /**
     * As above; {@code deletesStale}: whether to delete the copies whose ConfigMap is gone, which only the
     * writer of the copies does (with sharding, the holder of the leader Lease: {@link BundleReloader}).
     */
    public static List<Restored> restore(KubernetesClient client, String namespace, ContentVetting vetting, boolean deletesStale) {
        AcceptedBundles accepted = new AcceptedBundles(client, namespace);
        Map<String, ConfigMap> present = new HashMap<>();
        client.configMaps().inNamespace(namespace).withLabel(BundleConfigMaps.LABEL).list().getItems()
                .forEach(c -> present.put(c.getMetadata().getName(), c));
        List<Restored> restored = new ArrayList<>();
        List<AcceptedBundles.Accepted> copies = new ArrayList<>(accepted.all());
        copies.sort(Comparator.comparing(AcceptedBundles.Accepted::configMap));
        for (AcceptedBundles.Accepted copy : copies) {
            String source = BundleReloader.source(namespace, copy.configMap());
            ConfigMap configMap = present.get(copy.configMap());
            if (configMap == null || !configMap.getMetadata().getUid().equals(copy.ownerUid())) {
                if (!deletesStale) continue;
                LOG.info("{}: deleting the copy of bundle {} accepted from it: that ConfigMap is gone", source, copy.bundleName());
                try {
                    accepted.forget(copy.configMap());
                } catch (RuntimeException e) {
                    LOG.warn("{}: could not delete its accepted copy: {}", source, RootCause.message(e));
                }
                continue;
            }
            try {
                DecidingBundle bundle = vetting.vetData(source, copy.data()).bundle();
                LOG.info("{}: bundle {} runs, as accepted before (content {})", source, bundle, copy.contentHash());
                restored.add(new Restored(source, copy.contentHash(), bundle));
            } catch (BundleRefusedException e) {
                LOG.warn("{}: the copy accepted before cannot run now: {}; the ConfigMap is loaded as it is", source,
                        e.report("the ConfigMap is loaded as it is"));
            }
        }
        return restored;
    }
}
