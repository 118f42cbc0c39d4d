package dev.runbook.instance.tls;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The cluster's own certificate authority, kept in the data directory ({@code runbook-tls/ca.crt},
 * {@code ca.key}, the key readable by its owner only): made by the first primary when it initialises
 * the database, and copied with the data to every replica by {@code pg_basebackup} and
 * {@code pg_rewind}, so that every instance of the cluster, and only those, holds it. Nothing outside
 * the data directory is trusted or needed: no Secret, no operator, no cert-manager. Each instance
 * issues its own server certificate from it at every start ({@link #issueServer}); the standbys
 * verify the primary's against {@code ca.crt} ({@code sslmode=verify-full}). EC P-256 keys, ECDSA
 * with SHA-256; Bouncy Castle's certificate builder, the JDK's keys and signatures.
 */
public final class ClusterCa {
    public static final String DIR = "runbook-tls";
    private static final Duration CA_VALIDITY = Duration.ofDays(3650);
    private static final Duration SERVER_VALIDITY = Duration.ofDays(398);

    private final Path dataDir;

    public ClusterCa(Path dataDir) {
        this.dataDir = dataDir;
    }

    public Path certificate() {
        return dataDir.resolve(DIR).resolve("ca.crt");
    }

    private Path key() {
        return dataDir.resolve(DIR).resolve("ca.key");
    }

    public boolean exists() {
        return Files.isRegularFile(certificate()) && Files.isRegularFile(key());
    }

    /** A new authority for the cluster {@code qualifiedName} (NAMESPACE/NAME), replacing any there (a restored copy's). */
    public void create(String qualifiedName, Instant now) {
        try {
            KeyPair keys = ecKeys();
            X500Name name = new X500Name("CN=" + qualifiedName.replace(",", " ") + " instances CA, O=postgres.runbook.dev");
            X509CertificateHolder ca = new JcaX509v3CertificateBuilder(name, serial(), Date.from(now.minus(Duration.ofMinutes(5))),
                    Date.from(now.plus(CA_VALIDITY)), name, keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
                    .build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate()));
            Files.createDirectories(dataDir.resolve(DIR));
            writePublic(certificate(), pem(ca));
            writePrivate(key(), pem(keys.getPrivate()));
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException("cannot make the cluster's certificate authority: " + e.getMessage(), e);
        }
    }

    /**
     * A server certificate for this instance, signed by the authority: its pod's name as the common
     * name, and every DNS name and IP address a client may use to reach it as alternative names.
     */
    public void issueServer(String commonName, List<String> names, Path certificateOut, Path keyOut, Instant now) {
        try {
            X509CertificateHolder ca = readCertificate();
            PrivateKey caKey = readKey();
            KeyPair keys = ecKeys();
            List<GeneralName> alternatives = new ArrayList<>();
            for (String name : names) {
                alternatives.add(new GeneralName(isIpAddress(name) ? GeneralName.iPAddress : GeneralName.dNSName, name));
            }
            X509CertificateHolder server = new JcaX509v3CertificateBuilder(ca.getSubject(), serial(), Date.from(now.minus(Duration.ofMinutes(5))),
                    Date.from(now.plus(SERVER_VALIDITY)), new X500Name("CN=" + commonName), keys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
                    .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(alternatives.toArray(GeneralName[]::new)))
                    .build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKey));
            writePublic(certificateOut, pem(server));
            writePrivate(keyOut, pem(keys.getPrivate()));
        } catch (GeneralSecurityException | OperatorCreationException | IOException e) {
            throw new IllegalStateException("cannot issue the server certificate of " + commonName + ": " + e.getMessage(), e);
        }
    }

    /** The authority's certificate and key as PEM text, to hand to an instance whose data came without them. */
    public void adopt(String certificatePem, String keyPem) {
        try {
            Files.createDirectories(dataDir.resolve(DIR));
            writePublic(certificate(), certificatePem);
            writePrivate(key(), keyPem);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the cluster's certificate authority", e);
        }
    }

    private X509CertificateHolder readCertificate() throws IOException {
        try (PEMParser parser = new PEMParser(new StringReader(Files.readString(certificate())))) {
            return (X509CertificateHolder) parser.readObject();
        }
    }

    private PrivateKey readKey() throws IOException {
        try (PEMParser parser = new PEMParser(new StringReader(Files.readString(key())))) {
            return new JcaPEMKeyConverter().getPrivateKey((PrivateKeyInfo) parser.readObject());
        }
    }

    private static KeyPair ecKeys() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    private static BigInteger serial() {
        return new BigInteger(63, new SecureRandom());
    }

    private static boolean isIpAddress(String name) {
        try {
            return name.matches("[0-9.]+|.*:.*") && InetAddress.getByName(name) != null;
        } catch (IOException e) {
            return false;
        }
    }

    private static String pem(Object object) throws IOException {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object instanceof PrivateKey key ? new org.bouncycastle.openssl.jcajce.JcaPKCS8Generator(key, null) : object);
        }
        return text.toString();
    }

    private static void writePublic(Path file, String text) throws IOException {
        Files.writeString(file, text);
    }

    /** PostgreSQL refuses a key file others may read. */
    private static void writePrivate(Path file, String text) throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, text);
    }
}
