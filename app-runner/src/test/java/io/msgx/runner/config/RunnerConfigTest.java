package io.msgx.runner.config;

import io.msgx.runner.logging.LogFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RunnerConfigTest {

    @TempDir
    Path dir;

    @Test
    void a_yaml_file_is_read_as_dotted_keys_and_the_environment_overrides_it() throws Exception {
        var yaml = dir.resolve("msgx.yml");
        Files.writeString(yaml, """
                msgx:
                  store:   { url: "jdbc:postgresql://db:5432/msgx", user: ops, password: hunter2 }
                  mailbox: { url: "jdbc:mysql://aodb:3306/sis" }
                  kafka:
                    bootstrap-servers: "kafka:9092"
                    producer:
                      security.protocol: SSL
                  pipeline:
                    claim-batch: 50
                    max-commit-delay: 45s
                    ignore: [LDM-*, EROR-*]
                """);
        var config = RunnerConfig.from(ConfigSource.load(yaml, Map.of("MSGX_PIPELINE_CLAIM_BATCH", "75",
                "MSGX_KAFKA_TOPIC_SCHD", "airport.flights")));

        assertThat(config.store().user()).isEqualTo("ops");
        assertThat(config.inbox().claimBatch()).as("env wins over the file").isEqualTo(75);
        assertThat(config.inbox().maxCommitDelay()).isEqualTo(Duration.ofSeconds(45));
        assertThat(config.kafka().sink().schdTopic()).isEqualTo("airport.flights");
        assertThat(config.kafka().sink().producerProperties()).containsEntry("security.protocol", "SSL");
        assertThat(config.processing().ignoreRules().match("EROR", "X")).contains("EROR-*");
        assertThat(config.processing().ignoreRules().match("REGN", "X")).isEmpty();
        assertThat(config.describe()).containsEntry(Keys.STORE_PASSWORD, "(set)")
                .doesNotContainValue("hunter2");
    }

    @Test
    void a_properties_file_works_too_and_defaults_fill_the_rest() throws Exception {
        var file = dir.resolve("msgx.properties");
        Files.writeString(file, "msgx.store.url=jdbc:postgresql://db/msgx\nmsgx.mailbox.url=jdbc:mysql://aodb/sis\n");
        var config = RunnerConfig.from(ConfigSource.load(file, Map.of()));
        assertThat(config.kafka().sink()).as("no Kafka configured").isNull();
        assertThat(config.inbox().maxCommitDelay()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.store().schema()).isEqualTo("msgx");
        assertThat(config.http().token()).isNull();
        assertThat(config.http().host()).isEqualTo("0.0.0.0");
        assertThat(config.http().readyTimeout()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void the_http_interface_and_readiness_bound_are_read_from_their_documented_keys() {
        var config = RunnerConfig.from(ConfigSource.of(Map.of(
                "msgx.store.url", "jdbc:postgresql://db/msgx", "msgx.mailbox.url", "jdbc:mysql://aodb/sis",
                "msgx.http.host", "127.0.0.1", "msgx.http.ready-timeout", "500ms")));
        assertThat(config.http().host()).isEqualTo("127.0.0.1");
        assertThat(config.http().readyTimeout()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void the_log_format_is_text_by_default_json_from_the_environment_and_nothing_else() {
        var required = Map.of("msgx.store.url", "jdbc:postgresql://db/msgx", "msgx.mailbox.url", "jdbc:mysql://aodb/sis");
        assertThat(RunnerConfig.from(ConfigSource.of(required)).logFormat()).isEqualTo(LogFormat.TEXT);
        var env = new java.util.HashMap<>(Map.of("MSGX_STORE_URL", "jdbc:postgresql://db/msgx",
                "MSGX_MAILBOX_URL", "jdbc:mysql://aodb/sis", "MSGX_LOG_FORMAT", "JSON"));
        assertThat(RunnerConfig.from(ConfigSource.load(null, env)).logFormat()).isEqualTo(LogFormat.JSON);
        var wrong = new java.util.HashMap<>(required);
        wrong.put("msgx.log.format", "xml");
        assertThatThrownBy(() -> RunnerConfig.from(ConfigSource.of(wrong))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("msgx.log.format = 'xml' (from given): expected one of [text, json]");
    }

    @Test
    void the_reference_keys_default_to_keeping_absent_records_and_the_msgx_reference_topic() {
        var defaults = RunnerConfig.from(ConfigSource.of(Map.of(
                "msgx.store.url", "jdbc:postgresql://db/msgx", "msgx.mailbox.url", "jdbc:mysql://aodb/sis",
                "msgx.kafka.bootstrap-servers", "k:9092")));
        assertThat(defaults.reference().dnldRemovesAbsent()).isFalse();
        assertThat(defaults.kafka().sink().referenceTopic()).isEqualTo("msgx.reference");
        assertThat(defaults.referenceTypes()).contains("GLST", "SLST", "ABDG", "GATE").doesNotContain("REGN");

        var set = RunnerConfig.from(ConfigSource.of(Map.of(
                "msgx.store.url", "jdbc:postgresql://db/msgx", "msgx.mailbox.url", "jdbc:mysql://aodb/sis",
                "msgx.kafka.bootstrap-servers", "k:9092", "msgx.kafka.topic.reference", "aodb.reference",
                "msgx.reference.dnld-removes-absent", "true")));
        assertThat(set.reference().dnldRemovesAbsent()).isTrue();
        assertThat(set.kafka().sink().referenceTopic()).isEqualTo("aodb.reference");
    }

    @Test
    void every_problem_is_reported_at_once_with_key_value_origin_and_expectation_and_no_secret() {
        var source = ConfigSource.of(Map.of(
                "msgx.pipeline.claim-batch", "lots",
                "msgx.pipline.max-commit-delay", "30s",
                "msgx.airport.zone", "Mars/Olympus",
                "msgx.pipeline.retry.max-attempts", "3",
                "msgx.http.port", "99999",
                "msgx.mailbox.url", "jdbc:mysql://aodb/sis"));
        assertThatThrownBy(() -> RunnerConfig.from(source))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).hasSizeGreaterThanOrEqualTo(6))
                .hasMessageContaining("msgx.store.url: missing; expected the store's JDBC URL")
                .hasMessageContaining("msgx.pipeline.claim-batch = 'lots' (from given): expected a whole number from 1 to 10000")
                .hasMessageContaining("msgx.pipline.max-commit-delay (from given): not a key this build knows")
                .hasMessageContaining("msgx.airport.zone = 'Mars/Olympus'")
                .hasMessageContaining("msgx.pipeline.retry.backoff has 4 tiers but msgx.pipeline.retry.max-attempts=3")
                .hasMessageContaining("msgx.http.port = '99999'");
    }

    @Test
    void a_bad_secret_is_named_but_never_shown() {
        var source = ConfigSource.of(Map.of("msgx.store.url", "jdbc:postgresql://db/msgx",
                "msgx.mailbox.url", "jdbc:mysql://aodb/sis", "msgx.http.max-body-bytes", "x",
                "msgx.store.password", "s3cret"));
        assertThatThrownBy(() -> RunnerConfig.from(source)).hasMessageNotContaining("s3cret");
    }

    @Test
    void the_variable_of_a_key_is_upper_case_with_underscores() {
        assertThat(ConfigSource.variableOf("msgx.pipeline.claim-batch")).isEqualTo("MSGX_PIPELINE_CLAIM_BATCH");
        assertThat(ConfigSource.variableOf(Keys.STORE_URL)).isEqualTo("MSGX_STORE_URL");
        assertThat(Settings.toDuration("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Settings.toDuration("7d")).isEqualTo(Duration.ofDays(7));
        assertThat(Settings.toDuration("PT2M")).isEqualTo(Duration.ofMinutes(2));
    }
}
