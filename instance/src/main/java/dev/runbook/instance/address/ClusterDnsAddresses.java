package dev.runbook.instance.address;

/** Production: {@code POD.CLUSTER-instances.NAMESPACE.svc:5432}, the headless service's per-pod name. */
public record ClusterDnsAddresses(String clusterName, String namespace, int port) implements Addresses {
    @Override
    public Address of(String podName) {
        return new Address(podName + "." + clusterName + "-instances." + namespace + ".svc", port);
    }
}
