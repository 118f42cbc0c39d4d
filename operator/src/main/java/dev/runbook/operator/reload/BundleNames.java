package dev.runbook.operator.reload;

import dev.runbook.engine.bundle.BundleSpecParser;
import io.fabric8.kubernetes.api.model.ConfigMap;

import java.util.Map;

/**
 * The name a bundle ConfigMap's bundle goes by in metrics and messages: its own name from its
 * bundle.yaml, even when the bundle is refused (an alert on that name must see the refusal); when
 * bundle.yaml does not parse, the value of the ConfigMap's {@link BundleConfigMaps#LABEL} label
 * ({@code runbook pack} sets it to the bundle's name); failing both, the ConfigMap's name.
 */
public final class BundleNames {
    private BundleNames() {}

    public static String of(ConfigMap configMap) {
        Map<String, String> data = configMap.getData() == null ? Map.of() : configMap.getData();
        String spec = data.get(BundleSpecParser.FILE);
        if (spec != null) {
            try {
                return BundleSpecParser.parse(spec).name();
            } catch (RuntimeException unparseable) {
                // Named by the label below; the refusal itself says what is wrong with bundle.yaml.
            }
        }
        Map<String, String> labels = configMap.getMetadata().getLabels();
        String label = labels == null ? null : labels.get(BundleConfigMaps.LABEL);
        return label != null && !label.isBlank() ? label : configMap.getMetadata().getName();
    }
}
