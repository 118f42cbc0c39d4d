package dev.runbook.engine.bundle;

/** A Kubernetes kind named in {@code bundle.yaml}: {@code apiVersion} is {@code group/version} or {@code v1}. */
public record Kind(String apiVersion, String kind) {
    public String group() {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    public String version() {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
    }

    public boolean matches(String apiVersion, String kind) {
        return this.kind.equals(kind) && this.apiVersion.equals(apiVersion);
    }

    @Override
    public String toString() { return apiVersion + " " + kind; }
}
