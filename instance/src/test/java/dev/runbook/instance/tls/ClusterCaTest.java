package dev.runbook.instance.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterCaTest {
    private static final Instant NOW = Instant.parse("2026-12-04T12:00:00Z");

    @TempDir
    Path dir;

    @Test
    void anInstancesCertificateIsSignedByTheClustersAuthorityAndNamesItsAddresses() throws Exception {
        ClusterCa ca = new ClusterCa(dir.resolve("data"));
        assertThat(ca.exists()).isFalse();
        ca.create("demo/pg", NOW);
        Path cert = dir.resolve("server.crt");
        Path key = dir.resolve("server.key");
        ca.issueServer("pg-1", List.of("pg-1.pg-instances.demo.svc", "127.0.0.1"), cert, key, NOW);

        X509Certificate authority = read(ca.certificate());
        X509Certificate server = read(cert);
        server.verify(authority.getPublicKey());
        assertThat(server.getIssuerX500Principal()).isEqualTo(authority.getSubjectX500Principal());
        assertThat(server.getSubjectAlternativeNames()).extracting(n -> String.valueOf(n.get(1)))
                .containsExactly("pg-1.pg-instances.demo.svc", "127.0.0.1");
        assertThat(authority.getBasicConstraints()).as("a CA").isGreaterThanOrEqualTo(0);
        assertThat(server.getBasicConstraints()).as("not a CA").isEqualTo(-1);
        assertThat(Files.getPosixFilePermissions(key)).as("PostgreSQL refuses a key others may read")
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(Files.readString(key)).startsWith("-----BEGIN PRIVATE KEY-----");
    }

    @Test
    void aNewAuthorityReplacesARestoredCopysSoTheOldCertificatesNoLongerVerify() throws Exception {
        ClusterCa ca = new ClusterCa(dir.resolve("data"));
        ca.create("demo/pg", NOW);
        X509Certificate original = read(ca.certificate());
        ca.create("demo/pg2", NOW);
        X509Certificate own = read(ca.certificate());
        assertThat(own.getPublicKey()).isNotEqualTo(original.getPublicKey());
        assertThat(own.getSubjectX500Principal().getName()).contains("demo/pg2");
    }

    private static X509Certificate read(Path pem) throws Exception {
        return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(Files.readAllBytes(pem)));
    }
}
