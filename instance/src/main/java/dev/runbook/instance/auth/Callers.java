package dev.runbook.instance.auth;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Who may call the instance's endpoints other than its probes: the ServiceAccounts named in
 * {@code RUNBOOK_INSTANCE_CALLERS} (comma-separated {@code system:serviceaccount:NAMESPACE:NAME}),
 * which the StatefulSet's template renders: the operator's own and the cluster's backup Jobs'.
 * An empty list admits nobody.
 */
public record Callers(Set<String> allowed) {
    public static final String VARIABLE = "RUNBOOK_INSTANCE_CALLERS";

    public static Callers parse(String text) {
        return new Callers(text == null ? Set.of()
                : Arrays.stream(text.split(",")).map(String::strip).filter(s -> !s.isEmpty()).collect(Collectors.toUnmodifiableSet()));
    }

    public boolean admits(String subject) {
        return allowed.contains(subject);
    }
}
