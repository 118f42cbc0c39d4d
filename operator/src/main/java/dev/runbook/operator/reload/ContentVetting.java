package dev.runbook.operator.reload;

import java.util.Map;

/**
 * The one call a verdict on a bundle ConfigMap comes from: vet the bundle its data carries (unpack,
 * compile, run its scenarios under the operator's policy). The webhook, the reloader and the restore of
 * accepted copies all ask through it, so that what answers it ({@link BundleVetting} in this process,
 * {@link SharedVerdicts} around it) can change without them.
 */
@FunctionalInterface
public interface ContentVetting {
    /**
     * @param source names the ConfigMap in messages and becomes the bundle's origin ({@code configmap/NAMESPACE/NAME})
     * @param data   the ConfigMap's data ({@link BundleConfigMaps} keys)
     * @throws dev.runbook.operator.controller.BundleRefusedException when the bundle may not run, saying why
     */
    BundleVetting.Vetted vetData(String source, Map<String, String> data);
}
