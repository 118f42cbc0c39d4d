package dev.runbook.operator.admission;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;

/**
 * The webhook's TLS material, made by the operator itself (there is no cert-manager to rely on): a
 * self-signed CA, and a serving certificate it signs for the webhook's DNS names and IP addresses. The
 * API server trusts the CA through the {@code caBundle} of the ValidatingWebhookConfiguration. PEM text
 * throughout, as a {@code kubernetes.io/tls} Secret holds it. Built with Bouncy Castle's certificate
 * builder; keys and signatures are the JDK's own.
 */
public record ServingCertificate(String caPem, String certificatePem, String privateKeyPem) {
    /** The CA's and the serving certificate's lifetime; the operator renews ahead of the end ({@link WebhookTls}). */
    public static final Duration VALIDITY = Duration.ofDays(365);

    /** A new CA and a serving certificate for these names (DNS names or IP addresses), valid from {@code now}. */
    public static ServingCertificate generate(List<String> names, Instant now) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            KeyPair caKeys = generator.generateKeyPair();
            KeyPair servingKeys = generator.generateKeyPair();
            X500Name caName = new X500Name("CN=runbook-operator webhook CA");
            Date from = Date.from(now.minus(Duration.ofMinutes(5)));
            Date to = Date.from(now.plus(VALIDITY));

            var ca = new JcaX509v3CertificateBuilder(caName, serial(), from, to, caName, caKeys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            X509Certificate caCertificate = certificate(ca.build(signer(caKeys.getPrivate())));

            List<GeneralName> alternatives = new ArrayList<>();
            for (String name : names) {
                alternatives.add(new GeneralName(isIpAddress(name) ? GeneralName.iPAddress : GeneralName.dNSName, name));
            }
            var serving = new JcaX509v3CertificateBuilder(caName, serial(), from, to, new X500Name("CN=" + names.get(0)),
                    servingKeys.getPublic())
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment))
                    .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
                    .addExtension(Extension.subjectAlternativeName, false,
                            new GeneralNames(alternatives.toArray(GeneralName[]::new)));
            X509Certificate servingCertificate = certificate(serving.build(signer(caKeys.getPrivate())));
            return new ServingCertificate(pem("CERTIFICATE", caCertificate.getEncoded()),
                    pem("CERTIFICATE", servingCertificate.getEncoded()),
                    pem("PRIVATE KEY", servingKeys.getPrivate().getEncoded()));
        } catch (GeneralSecurityException | OperatorCreationException | java.io.IOException e) {
            throw new IllegalStateException("cannot make the webhook's certificate: " + e.getMessage(), e);
        }
    }

    /** The serving certificate, parsed. */
    public X509Certificate serving() {
        return parse(certificatePem);
    }

    /** Whether the serving certificate is valid at {@code at} and names every one of {@code names}. */
    public boolean covers(List<String> names, Instant at) {
        try {
            X509Certificate certificate = serving();
            if (certificate.getNotAfter().toInstant().isBefore(at)) return false;
            List<String> present = new ArrayList<>();
            if (certificate.getSubjectAlternativeNames() != null) {
                for (List<?> alternative : certificate.getSubjectAlternativeNames()) present.add(String.valueOf(alternative.get(1)));
            }
            return present.containsAll(names);
        } catch (GeneralSecurityException | RuntimeException e) {
            return false;
        }
    }

    /** A TLS context serving this certificate. */
    public SSLContext sslContext() {
        try {
            PrivateKey key = KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der(privateKeyPem)));
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            char[] password = new char[0];
            store.setKeyEntry("webhook", key, password, new Certificate[] {serving(), parse(caPem)});
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("the webhook's certificate cannot be served: " + e.getMessage(), e);
        }
    }

    private static boolean isIpAddress(String name) {
        return name.matches("[0-9.]+") || name.contains(":");
    }

    private static BigInteger serial() {
        return new BigInteger(63, new SecureRandom());
    }

    private static org.bouncycastle.operator.ContentSigner signer(PrivateKey key) throws OperatorCreationException {
        return new JcaContentSignerBuilder("SHA256withRSA").build(key);
    }

    private static X509Certificate certificate(X509CertificateHolder holder) throws GeneralSecurityException {
        return new JcaX509CertificateConverter().getCertificate(holder);
    }

    private static X509Certificate parse(String pem) {
        try {
            return (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("not a PEM certificate: " + e.getMessage(), e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static byte[] der(String pem) {
        return Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
    }
}
