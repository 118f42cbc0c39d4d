package dev.runbook.instance.address;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The test tier's resolution shim: every instance runs on 127.0.0.1 with a port of its own, and a
 * properties file ({@code pg-0=127.0.0.1:25432}) written by the process that plays the kubelet says
 * which. Read on every lookup, so a pod started later is found.
 */
public record LoopbackAddresses(Path file) implements Addresses {
    /** The instance manager's HTTP port: the entry {@code POD.http}, which the loopback kubelet writes next to the server's. */
    @Override
    public Address httpOf(String podName) {
        return of(podName + ".http");
    }

    @Override
    public Address of(String podName) {
        Properties map = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            map.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the address file " + file, e);
        }
        String value = map.getProperty(podName);
        if (value == null) {
            throw new IllegalStateException("the address file " + file + " has no entry for " + podName);
        }
        int colon = value.lastIndexOf(':');
        return new Address(value.substring(0, colon), Integer.parseInt(value.substring(colon + 1).trim()));
    }
}
