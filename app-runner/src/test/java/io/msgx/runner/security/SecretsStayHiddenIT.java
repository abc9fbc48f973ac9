package io.msgx.runner.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.msgx.adapter.kafka.KafkaTestBroker;
import io.msgx.pipeline.testing.SisMessages;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.msgx.adapter.mysql.TestMailboxDatabase.insertInbound;
import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.runner.BuiltRunner.await;
import static io.msgx.runner.BuiltRunner.freePort;
import static io.msgx.runner.BuiltRunner.jar;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * No secret ever leaves the runner: the built jar runs as an operator runs it, on the least-privileged users of
 * {@link LeastPrivilegeUsers} (each with its own distinctive password), an HTTP token, a Kafka SASL password passed
 * through {@code msgx.kafka.producer.*} to a broker that cannot be reached, secrets in the file and in the
 * environment, at log level DEBUG. Everything it
 * prints is kept: {@code migrate}, {@code run} (start-up settings, processing, the HTTP side, a refused login and
 * wrong tokens, SIGTERM), {@code status} and {@code status --json}, the HTTP answers of health, metrics and the
 * console; and the ways a start goes wrong: a store that is unreachable with the password written into its JDBC
 * URL, a mailbox that is unreachable the same way, a refused configuration. Not one of the secrets may appear
 * anywhere.
 */
class SecretsStayHiddenIT {

    private final SisMessages sis = new SisMessages();
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<Process> processes = new ArrayList<>();
    private final Map<String, String> outputs = new LinkedHashMap<>();
    private final String token = "HttpTok-" + UUID.randomUUID();
    private final String kafkaPassword = "KafkaPw-" + UUID.randomUUID();
    private final String urlPassword = "UrlPw-" + UUID.randomUUID();
    private final String urlUserPassword = "UrlUserPw-" + UUID.randomUUID();
    private final String wrongToken = "WrongTok-" + UUID.randomUUID();
    private LeastPrivilegeUsers users;
    private Path workDir;

    @BeforeEach
    void createUsers() throws Exception {
        users = LeastPrivilegeUsers.create();
        workDir = Files.createTempDirectory("msgx-secrets");
    }

    @AfterEach
    void cleanUp() throws IOException {
        try {
            processes.forEach(Process::destroyForcibly);
        } finally {
            users.close();
            try (var files = Files.walk(workDir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    void no_password_token_or_sasl_secret_appears_in_any_output_of_the_runner() throws Exception {
        // Kafka is the test broker (plaintext: the SASL secret is configured, held by the producer, never used).
        var msgTopic = KafkaTestBroker.uniqueTopic("secrets-msg");
        var schdTopic = KafkaTestBroker.uniqueTopic("secrets-schd");
        var referenceTopic = KafkaTestBroker.uniqueTopic("secrets-reference");
        KafkaTestBroker.createTopics(1, msgTopic);
        KafkaTestBroker.createCompactedTopics(1, schdTopic, referenceTopic);
        var config = configFile("runner.properties", Map.of("msgx.kafka.bootstrap-servers",
                KafkaTestBroker.bootstrapServers(), "msgx.kafka.topic.msg", msgTopic, "msgx.kafka.topic.schd", schdTopic,
                "msgx.kafka.topic.reference", referenceTopic));
        // The mailbox password comes from the environment, the others from the file.
        var env = Map.of("MSGX_MAILBOX_PASSWORD", users.mailboxPassword, "MSGX_LOG_LEVEL", "DEBUG");

        var owner = new LinkedHashMap<>(env);
        owner.put("MSGX_STORE_USER", users.owner);
        owner.put("MSGX_STORE_PASSWORD", users.ownerPassword);
        assertThat(runToEnd("migrate", owner, "migrate", "-c", config.toString())).isZero();
        users.afterFirstMigration();
        users.grantCompatibilityEntry();

        long first;
        long second;
        try (var aodb = users.aodb()) {
            first = insertInbound(aodb, sis.schedule(fltr("1001", "11MAR240835", "FLNO", "CA1405")));
            second = insertInbound(aodb, sis.other("LDM", "ANY"));
        }
        int port = freePort();
        var runEnv = new LinkedHashMap<>(env);
        runEnv.put("MSGX_HTTP_PORT", Integer.toString(port));
        var run = start("run", runEnv, "run", "-c", config.toString());
        await("the runner active", () -> output("run").contains("Pipeline active"));
        await("both messages processed", () -> processed(second));

        var base = "http://127.0.0.1:" + port;
        var wrong = post(base + "/cminmsgs/send", "Bearer " + wrongToken, "application/xml",
                sis.schedule(fltr("2001", "11MAR240900")));
        assertThat(wrong.statusCode()).isEqualTo(401);
        var accepted = post(base + "/cminmsgs/send", "Bearer " + token, "application/xml",
                sis.schedule(fltr("2001", "11MAR240900")));
        assertThat(accepted.statusCode()).isEqualTo(202);
        long viaEntry = new ObjectMapper().readTree(accepted.body()).get("msgId").asLong();
        await("the entry's message processed", () -> processed(viaEntry));
        var refusedLogin = post(base + "/console/login", null, "application/x-www-form-urlencoded",
                "secret=" + wrongToken + "&next=/console/");
        assertThat(refusedLogin.statusCode()).isIn(401, 403);
        for (var target : List.of("/health/live", "/health/ready", "/metrics", "/console/api/overview",
                "/console/message?id=" + first)) {
            var answer = http.send(HttpRequest.newBuilder(URI.create(base + target))
                    .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
            outputs.put("GET " + target, answer.statusCode() + "\n" + answer.headers().map() + "\n" + answer.body());
            assertThat(answer.statusCode()).as(target).isIn(200, 503);
        }

        var status = start("status", env, "status", "-c", config.toString());
        var statusJson = start("status --json", env, "status", "--json", "-c", config.toString());
        assertThat(exitOf("status", status)).isZero();
        assertThat(exitOf("status --json", statusJson)).isZero();
        assertThat(new ObjectMapper().readTree(stdout("status --json")).get("watermark").asLong()).isEqualTo(viaEntry);

        run.destroy();
        assertThat(run.waitFor(30, TimeUnit.SECONDS)).as("SIGTERM stops the runner").isTrue();

        // The ways a start goes wrong, each with a password where operators do put one (run side by side).
        var unreachableStore = configFile("unreachable-store.properties", Map.of(
                "msgx.store.url", "jdbc:postgresql://127.0.0.1:1/test?user=msgx&password=" + urlPassword));
        var storeDown = start("status, store unreachable", env, "status", "-c", unreachableStore.toString());
        var unreachableMailbox = configFile("unreachable-mailbox.properties", Map.of(
                "msgx.mailbox.url", "jdbc:mysql://" + users.mailboxUser + ":" + urlUserPassword
                        + "@127.0.0.1:1/sis?connectTimeout=500&password=" + urlPassword));
        var mailboxDown = new LinkedHashMap<>(env);
        mailboxDown.put("MSGX_HTTP_PORT", Integer.toString(freePort()));
        var down = start("run, mailbox unreachable", mailboxDown, "run", "-c", unreachableMailbox.toString());
        // Kafka configured but unreachable: start-up refuses, naming the cluster, never the SASL secret (D-71).
        var unreachableKafka = configFile("unreachable-kafka.properties", Map.of("msgx.kafka.bootstrap-servers",
                "127.0.0.1:1", "msgx.kafka.max-block", "2s", "msgx.kafka.request-timeout", "2s",
                "msgx.kafka.delivery-timeout", "4s"));
        var kafkaDown = start("run, Kafka unreachable", env, "run", "-c", unreachableKafka.toString());
        var refusedConfig = configFile("refused.properties", Map.of("msgx.http.port", "eighty",
                "msgx.mailbox.password", urlPassword + "x", "msgx.http.token", token + " "));
        var refused = start("run, refused configuration", env, "run", "-c", refusedConfig.toString());
        assertThat(exitOf("run, refused configuration", refused)).isEqualTo(2);
        assertThat(exitOf("run, Kafka unreachable", kafkaDown)).isEqualTo(1);
        assertThat(output("run, Kafka unreachable")).contains("Kafka is required and does not answer at start-up",
                "127.0.0.1:1");
        assertThat(exitOf("status, store unreachable", storeDown)).isNotZero();
        await("the mailbox failure reported", () -> output("run, mailbox unreachable").contains("Mailbox unavailable"));
        down.destroy();
        assertThat(down.waitFor(30, TimeUnit.SECONDS)).isTrue();
        output("run, mailbox unreachable");

        assertThat(output("run")).as("the start-up line shows the build and the settings, secrets masked")
                .contains("Starting msgexchange " + io.msgx.runner.build.BuildInfo.current().describe() + " with {",
                        "msgx.store.password=(set)", "msgx.http.token=(set; deprecated");
        assertThat(output("run, mailbox unreachable")).contains("msgx.mailbox.url=jdbc:mysql://" + users.mailboxUser
                + ":***@127.0.0.1:1/sis?connectTimeout=500&password=***");
        assertThat(output("status")).contains("watermark");
        assertThat(output("run, refused configuration")).contains("msgx.http.port");
        var secrets = new ArrayList<>(users.passwords());
        secrets.addAll(List.of(token, kafkaPassword, urlPassword, urlUserPassword, wrongToken));
        outputs.forEach((name, text) -> assertThat(text).as("output of " + name).isNotBlank()
                .doesNotContain(secrets));
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** The runner's configuration: the runtime users, the token, a SASL secret, plus {@code overrides}. */
    private Path configFile(String name, Map<String, String> overrides) throws IOException {
        var keys = new LinkedHashMap<String, String>(users.runtimeKeys());
        keys.remove("msgx.mailbox.password");
        if (overrides.containsKey("msgx.kafka.bootstrap-servers")) {
            keys.remove("msgx.kafka.enabled");
        }
        keys.put("msgx.http.token", token);
        keys.put("msgx.kafka.producer.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule"
                + " required username=\"msgx\" password=\"" + kafkaPassword + "\";");
        keys.put("msgx.pipeline.poll-interval", "200ms");
        keys.put("msgx.jobs.standby-poll", "200ms");
        keys.put("msgx.http.port", "0");
        keys.putAll(overrides);
        var text = new StringBuilder();
        keys.forEach((key, value) -> text.append(key).append('=').append(value.replace("\\", "\\\\")).append('\n'));
        var file = workDir.resolve(name);
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    private Process start(String name, Map<String, String> env, String... args) throws IOException {
        var command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-XX:+UseSerialGC", "-jar", jar()));
        command.addAll(List.of(args));
        var builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(key -> key.startsWith("MSGX_"));
        builder.environment().putAll(env);
        builder.redirectOutput(file(name, "out").toFile());
        builder.redirectError(file(name, "err").toFile());
        var process = builder.start();
        processes.add(process);
        outputs.put(name, "");
        return process;
    }

    private int runToEnd(String name, Map<String, String> env, String... args) throws Exception {
        return exitOf(name, start(name, env, args));
    }

    private int exitOf(String name, Process process) throws InterruptedException {
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(name + " ends").isTrue();
        output(name);
        return process.exitValue();
    }

    /** Everything {@code name} printed so far, stdout then stderr (also kept for the final check). */
    private String output(String name) {
        try {
            var text = read(file(name, "out")) + read(file(name, "err"));
            outputs.put(name, text);
            return text;
        } catch (IOException e) {
            return "";
        }
    }

    private String stdout(String name) throws IOException {
        return read(file(name, "out"));
    }

    private Path file(String name, String stream) {
        return workDir.resolve(name.replaceAll("[^a-z-]+", "_") + "." + stream);
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    private HttpResponse<String> post(String uri, String authorization, String type, String body) throws Exception {
        var request = HttpRequest.newBuilder(URI.create(uri)).header("Content-Type", type)
                .header("Origin", uri.substring(0, uri.indexOf('/', 8)))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        var answer = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        outputs.put("POST " + uri + " as " + authorization, answer.statusCode() + "\n" + answer.headers().map() + "\n"
                + answer.body());
        return answer;
    }

    private boolean processed(long msgId) {
        try (var admin = users.postgresAdmin(); var st = admin.createStatement();
             var rows = st.executeQuery("SELECT count(*) FROM proc_state WHERE msg_id = " + msgId
                     + " AND state IN ('SUCCEEDED', 'SKIPPED')")) {
            return rows.next() && rows.getLong(1) == 1;
        } catch (SQLException e) {
            return false;
        }
    }
}
