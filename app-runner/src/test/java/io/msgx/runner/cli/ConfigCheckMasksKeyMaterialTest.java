package io.msgx.runner.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.msgx.runner.config.Keys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * D-141: {@code config check} masks every secret, the Kafka client's inline key material, SASL and OAuth settings
 * and the HTTP token included, in the text and in the JSON form; paths to such files stay visible.
 */
class ConfigCheckMasksKeyMaterialTest {

    /** Each secret key with a value that must never be printed. */
    private static final Map<String, String> SECRETS = secrets();

    @TempDir
    Path dir;

    private static Map<String, String> secrets() {
        var secrets = new LinkedHashMap<String, String>();
        secrets.put("msgx.store.password", "StorePassword-1");
        secrets.put("msgx.mailbox.password", "MailboxPassword-2");
        secrets.put("msgx.http.token", "HttpToken-3");
        secrets.put("msgx.kafka.producer.ssl.keystore.key",
                "-----BEGIN ENCRYPTED PRIVATE KEY----- PrivateKeyMaterial-4 -----END ENCRYPTED PRIVATE KEY-----");
        secrets.put("msgx.kafka.producer.ssl.keystore.certificate.chain",
                "-----BEGIN CERTIFICATE----- ClientChain-5 -----END CERTIFICATE-----");
        secrets.put("msgx.kafka.producer.ssl.truststore.certificates",
                "-----BEGIN CERTIFICATE----- TrustedCa-6 -----END CERTIFICATE-----");
        secrets.put("msgx.kafka.producer.ssl.key.password", "KeyPassword-7");
        secrets.put("msgx.kafka.producer.ssl.keystore.password", "KeystorePassword-8");
        secrets.put("msgx.kafka.producer.ssl.truststore.password", "TruststorePassword-9");
        secrets.put("msgx.kafka.producer.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"msgx\" password=\"Jaas-10\";");
        secrets.put("msgx.kafka.producer.sasl.oauthbearer.client.credentials.client.secret", "OauthSecret-11");
        secrets.put("msgx.kafka.producer.sasl.oauthbearer.assertion.private.key.passphrase", "Passphrase-12");
        secrets.put("msgx.kafka.producer.basic.auth.user.info", "registry:UserInfo-13");
        return secrets;
    }

    private String check(Path file, String... flags) {
        var out = new ByteArrayOutputStream();
        var commandLine = new CommandLine(new Main());
        commandLine.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        var args = new java.util.ArrayList<>(List.of("config", "check", "-c", file.toString()));
        args.addAll(List.of(flags));
        int code = commandLine.execute(args.toArray(String[]::new));
        var text = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as(text).isZero();
        return text;
    }

    private Path siteFile() throws Exception {
        var lines = new java.util.ArrayList<>(List.of("msgx.store.url=jdbc:postgresql://db:5432/msgx?sslmode=verify-full"
                        + "&sslrootcert=/etc/msgexchange/tls/ca.crt&sslpassword=UrlPassword-14",
                "msgx.mailbox.url=jdbc:mysql://aodb:3306/sis?sslMode=VERIFY_IDENTITY"
                        + "&trustCertificateKeyStoreUrl=file:/etc/msgexchange/tls/ca.p12"
                        + "&trustCertificateKeyStorePassword=UrlPassword-15",
                "msgx.kafka.bootstrap-servers=kafka1:9093",
                "msgx.kafka.producer.security.protocol=SSL",
                "msgx.kafka.producer.ssl.truststore.location=/etc/msgexchange/tls/kafka-truststore.p12",
                "msgx.kafka.producer.ssl.keystore.type=PEM",
                "msgx.kafka.producer.ssl.endpoint.identification.algorithm=https"));
        // .properties text: the multi-line PEM values written as one line, as an operator would
        SECRETS.forEach((key, value) -> lines.add(key + "=" + value));
        var file = dir.resolve("site.properties");
        Files.writeString(file, String.join("\n", lines));
        return file;
    }

    @Test
    void no_secret_text_appears_in_the_text_report_and_each_secret_key_says_set() throws Exception {
        var text = check(siteFile());

        for (var secret : SECRETS.entrySet()) {
            assertThat(text).as(secret.getKey()).doesNotContain(secret.getValue())
                    .containsPattern(java.util.regex.Pattern.quote(secret.getKey()) + " +\\(set\\) +\\(site\\.properties\\)");
        }
        assertThat(text).doesNotContain("UrlPassword-14", "UrlPassword-15", "PrivateKeyMaterial", "ClientChain",
                        "TrustedCa", "Jaas-10", "UserInfo-13")
                // what is no secret stays readable: the TLS mode, where the trust store is, the protocol
                .contains("sslmode=verify-full", "sslMode=VERIFY_IDENTITY", "sslpassword=***",
                        "trustCertificateKeyStorePassword=***")
                .containsPattern("msgx\\.kafka\\.producer\\.ssl\\.truststore\\.location +/etc/msgexchange/tls/kafka-truststore\\.p12")
                .containsPattern("msgx\\.kafka\\.producer\\.security\\.protocol +SSL");
    }

    @Test
    void no_secret_text_appears_in_the_json_report() throws Exception {
        var json = check(siteFile(), "--json");

        for (var secret : SECRETS.values()) {
            assertThat(json).doesNotContain(secret);
        }
        assertThat(json).doesNotContain("UrlPassword-14", "UrlPassword-15", "PrivateKeyMaterial", "Jaas-10");
        var keys = new ObjectMapper().readTree(json).get("keys");
        var values = new LinkedHashMap<String, String>();
        keys.forEach(entry -> values.put(entry.get("key").asText(), entry.get("value").asText()));
        SECRETS.keySet().forEach(key -> assertThat(values).as(key).containsEntry(key, "(set)"));
        assertThat(values).containsEntry("msgx.kafka.producer.ssl.keystore.type", "PEM");
    }

    @Test
    void the_rule_masks_key_material_and_credentials_by_name_but_not_paths_to_them_nor_ordinary_keys() {
        assertThat(List.of("msgx.kafka.producer.ssl.keystore.key", "msgx.kafka.producer.ssl.truststore.certificates",
                "msgx.kafka.producer.ssl.keystore.certificate.chain", "msgx.kafka.producer.sasl.jaas.config",
                "msgx.kafka.producer.sasl.oauthbearer.client.credentials.client.secret",
                "msgx.kafka.producer.basic.auth.user.info", "msgx.http.token", "msgx.store.password",
                "msgx.kafka.producer.sasl.login.refresh.token", "msgx.http.api-token"))
                .allSatisfy(key -> assertThat(Keys.secret(key)).as(key).isTrue());
        // paths (the file's permissions guard the secret; the path helps an operator) and ordinary settings
        assertThat(List.of("msgx.http.credentials-file", "msgx.kafka.producer.ssl.truststore.location",
                "msgx.kafka.producer.ssl.keystore.location", "msgx.kafka.producer.ssl.keymanager.algorithm",
                "msgx.kafka.producer.ssl.keystore.type", "msgx.kafka.producer.key.serializer",
                Keys.LISTS_MERGED_BY_KEY, Keys.KAFKA_CLIENT_ID, Keys.STORE_USER, Keys.MAILBOX_USER))
                .allSatisfy(key -> assertThat(Keys.secret(key)).as(key).isFalse());
        // of the known keys, only these three are secrets today
        assertThat(Keys.ALL.stream().filter(Keys::secret))
                .contains(Keys.STORE_PASSWORD, Keys.MAILBOX_PASSWORD, Keys.HTTP_TOKEN);
    }
}
