package dev.runbook.instance.address;

/** Where a PostgreSQL server listens. */
public record Address(String host, int port) {
    @Override
    public String toString() {
        return host + ":" + port;
    }
}
