package io.msgx.adapter.kafka;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away certificate authority and a server certificate for {@code localhost} signed by it, made at test time
 * with the JDK's own {@code keytool} (no other tool, no library): for a TLS listener of a test broker, and as the
 * "wrong CA" of the tests that must see a server refused. Valid for two days; everything in one folder.
 *
 * @param caPem       the CA's certificate, PEM ({@code sslrootcert} of PostgreSQL, {@code ssl.truststore.certificates})
 * @param trustStore  the CA's certificate alone, PKCS#12 ({@code ssl.truststore.location}, Connector/J's trust store)
 * @param serverStore the server's key and chain (server, CA), PKCS#12 ({@code ssl.keystore.location} of a broker)
 * @param password    the password of both PKCS#12 files
 */
public record TestCertificates(Path caPem, Path trustStore, Path serverStore, String password) {

    private static final String PASSWORD = "test-changeit";

    /** Make a new CA and a {@code localhost} server certificate signed by it, in {@code folder}. */
    public static TestCertificates make(Path folder, String caName) {
        try {
            Files.createDirectories(folder);
            var ca = folder.resolve("ca.p12");
            var caPem = folder.resolve("ca.pem");
            var server = folder.resolve("server.p12");
            var request = folder.resolve("server.csr");
            var signed = folder.resolve("server.pem");
            var trust = folder.resolve("truststore.p12");
            keytool("-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                    "-dname", "CN=" + caName, "-ext", "bc:c", "-keystore", ca.toString(), "-storetype", "PKCS12",
                    "-storepass", PASSWORD);
            keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", ca.toString(), "-storepass", PASSWORD,
                    "-file", caPem.toString());
            keytool("-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                    "-dname", "CN=localhost", "-keystore", server.toString(), "-storetype", "PKCS12",
                    "-storepass", PASSWORD);
            keytool("-certreq", "-alias", "server", "-keystore", server.toString(), "-storepass", PASSWORD,
                    "-file", request.toString());
            keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", ca.toString(), "-storepass", PASSWORD,
                    "-infile", request.toString(), "-outfile", signed.toString(), "-validity", "2",
                    "-ext", "SAN=dns:localhost", "-ext", "EKU=serverAuth");
            keytool("-importcert", "-noprompt", "-alias", "ca", "-file", caPem.toString(), "-keystore",
                    server.toString(), "-storepass", PASSWORD);
            keytool("-importcert", "-alias", "server", "-file", signed.toString(), "-keystore", server.toString(),
                    "-storepass", PASSWORD);
            keytool("-importcert", "-noprompt", "-alias", "ca", "-file", caPem.toString(), "-keystore",
                    trust.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD);
            return new TestCertificates(caPem, trust, server, PASSWORD);
        } catch (IOException e) {
            throw new IllegalStateException("could not make test certificates in " + folder + ": " + e, e);
        }
    }

    /** The JDK's keytool: the one beside the running java. */
    private static void keytool(String... args) throws IOException {
        var keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        var command = new ArrayList<String>();
        command.add(keytool.toString());
        command.addAll(List.of(args));
        var process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            var output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException("keytool " + args[0] + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running keytool", e);
        }
    }
}
