package dev.runbook.instance.address;

/**
 * Turns an instance's pod name into the address of its server. In a cluster that is the pod's DNS
 * name under the headless service; in the loopback test tier a file maps names to local ports.
 */
public interface Addresses {
    Address of(String podName);

    /** The instance manager's HTTP port (probes, POST /backup): the pod's {@code probes} port, 8000. */
    default Address httpOf(String podName) {
        return new Address(of(podName).host(), 8000);
    }
}
