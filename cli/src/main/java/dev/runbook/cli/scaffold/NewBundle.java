package dev.runbook.cli.scaffold;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code runbook new NAME --kind GROUP/VERSION/KIND} is asked for, checked: a bundle name that is
 * a DNS label, and a kind whose group has a dot, whose version is Kubernetes-shaped and whose kind is
 * CamelCase. Everything the scaffold writes is derived from these.
 */
public record NewBundle(String name, String group, String version, String kind) {
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern KIND = Pattern.compile("([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+)/"
            + "(v[0-9]+((alpha|beta)[0-9]+)?)/([A-Z][A-Za-z0-9]*)");

    /** @throws IllegalArgumentException naming the argument and the form it must take */
    public static NewBundle of(String name, String kind) {
        if (name == null || !DNS_LABEL.matcher(name).matches()) {
            throw new IllegalArgumentException("NAME '" + name + "' must be lower-case letters, digits and '-' (a DNS label), e.g. demo");
        }
        Matcher m = KIND.matcher(kind == null ? "" : kind);
        if (!m.matches()) {
            throw new IllegalArgumentException("--kind '" + kind + "' must be GROUP/VERSION/KIND with a dotted group, "
                    + "e.g. demo.example.com/v1alpha1/Demo");
        }
        return new NewBundle(name, m.group(1), m.group(5), m.group(8));
    }

    public String apiVersion() { return group + "/" + version; }

    /**
     * The lower-case plural of the kind, as its CRD and its RBAC name it: English's regular plural
     * (demo: demos, policy: policies, box: boxes), which bundle.yaml then writes out, so any other can
     * be put there by hand.
     */
    public String plural() {
        String lower = kind.toLowerCase(Locale.ROOT);
        if (lower.matches(".*(s|x|z|ch|sh)")) return lower + "es";
        if (lower.matches(".*[^aeiou]y")) return lower.substring(0, lower.length() - 1) + "ies";
        return lower + "s";
    }

    public String crdName() { return plural() + "." + group; }

    /** The DRL package: the name as an identifier. */
    public String drlPackage() { return name.replace('-', '_'); }

    /** The label that ties the objects the bundle makes to their primary. */
    public String instanceLabel() { return group + "/instance"; }
}
