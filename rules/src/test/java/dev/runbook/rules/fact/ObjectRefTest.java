package dev.runbook.rules.fact;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ObjectRefTest {
    /** The Kubernetes rule for a namespace name (a DNS label), which the hand-written check follows. */
    static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    @ParameterizedTest
    @ValueSource(strings = {"a", "0", "db", "pg-0", "a-b-c", "-a", "a-", "-", "A", "a_b", "a.b", "ns ", "é",
            "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk",
            "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl"})
    void theNamespaceCheckAgreesWithTheDnsLabelRule(String namespace) {
        assertThat(ObjectRef.isNamespaceName(namespace)).as(namespace).isEqualTo(DNS_LABEL.matcher(namespace).matches());
    }

    @Test
    void aBadNamespaceIsRefusedWithTheRule() {
        assertThatThrownBy(() -> new ObjectRef("v1", "Pod", "Prod", "pg-0"))
                .hasMessageContaining("metadata.namespace: 'Prod' is not a namespace name");
    }

    @Test
    void equalReferencesHashAlike() {
        ObjectRef a = new ObjectRef("v1", "Pod", "db", "pg-0");
        ObjectRef b = new ObjectRef("v1", "Pod", "db", "pg-0");
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a.hashCode()).isEqualTo(a.hashCode());
        assertThat(a).isNotEqualTo(new ObjectRef("v1", "Pod", "db", "pg-1"));
    }
}
