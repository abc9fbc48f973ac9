package io.msgx.runner.config;

import io.msgx.pipeline.record.RequestKind;
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
        Files.writeString(file, "msgx.store.url=jdbc:postgresql://db/msgx\nmsgx.mailbox.url=jdbc:mysql://aodb/sis\n"
                + "msgx.kafka.enabled=false\n");
        var config = RunnerConfig.from(ConfigSource.load(file, Map.of()));
        assertThat(config.kafka().sink()).as("Kafka turned off on purpose").isNull();
        assertThat(config.kafka().enabled()).isFalse();
        assertThat(config.store().statementTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(config.store().socketTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(config.health().livenessPeriods()).isEqualTo(10);
        assertThat(config.health().livenessGrace()).isEqualTo(Duration.ofMinutes(5));
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
                "msgx.kafka.bootstrap-servers", "k:9092",
                "msgx.http.host", "127.0.0.1", "msgx.http.ready-timeout", "500ms")));
        assertThat(config.http().host()).isEqualTo("127.0.0.1");
        assertThat(config.http().readyTimeout()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void the_log_format_is_text_by_default_json_from_the_environment_and_nothing_else() {
        var required = Map.of("msgx.store.url", "jdbc:postgresql://db/msgx", "msgx.mailbox.url", "jdbc:mysql://aodb/sis",
                "msgx.kafka.enabled", "false");
        assertThat(RunnerConfig.from(ConfigSource.of(required)).logFormat()).isEqualTo(LogFormat.TEXT);
        var env = new java.util.HashMap<>(Map.of("MSGX_STORE_URL", "jdbc:postgresql://db/msgx",
                "MSGX_MAILBOX_URL", "jdbc:mysql://aodb/sis", "MSGX_LOG_FORMAT", "JSON", "MSGX_KAFKA_ENABLED", "false"));
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

    private static Map<String, String> required(String... more) {
        var keys = new java.util.HashMap<>(Map.of("msgx.store.url", "jdbc:postgresql://db/msgx",
                "msgx.mailbox.url", "jdbc:mysql://aodb/sis", "msgx.kafka.bootstrap-servers", "k:9092"));
        for (int i = 0; i < more.length; i += 2) {
            keys.put(more[i], more[i + 1]);
        }
        return keys;
    }

    @Test
    void every_list_is_replaced_by_default_and_the_lists_named_are_merged_by_key() {
        var defaults = RunnerConfig.from(ConfigSource.of(required())).engine();
        assertThat(defaults.listModes()).isEmpty();
        assertThat(defaults.listMode(io.msgx.domain.flight.FlightList.DELY)).isEqualTo(io.msgx.domain.engine.ListMode.REPLACE);

        var merging = RunnerConfig.from(ConfigSource.of(required("msgx.domain.lists-merged-by-key", "dely, VIPF"))).engine();
        assertThat(merging.listModes()).containsOnlyKeys(io.msgx.domain.flight.FlightList.DELY,
                io.msgx.domain.flight.FlightList.VIPF);
        assertThat(merging.listMode(io.msgx.domain.flight.FlightList.VIPF)).isEqualTo(io.msgx.domain.engine.ListMode.MERGE_BY_KEY);

        assertThatThrownBy(() -> RunnerConfig.from(ConfigSource.of(required("msgx.domain.lists-merged-by-key", "DELY,GTDT"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("msgx.domain.lists-merged-by-key: 'GTDT' is not a list that can be merged by key;"
                        + " expected some of DELY, ERUT, SRVT, VIPF");
    }

    @Test
    void our_request_seqn_has_six_digits_by_default_and_the_width_is_checked() {
        assertThat(RunnerConfig.from(ConfigSource.of(required())).requests().seqns().width()).isEqualTo(6);
        assertThat(RunnerConfig.from(ConfigSource.of(required("msgx.requests.seqn-width", "9"))).requests().seqns()
                .max()).isEqualTo(999_999_999L);
        assertThatThrownBy(() -> RunnerConfig.from(ConfigSource.of(required("msgx.requests.seqn-width", "19"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("msgx.requests.seqn-width = '19' (from given): expected a whole number from 1 to 18");
    }

    @Test
    void each_kind_of_request_has_its_routing_id_defaulting_to_the_one_routing_id() {
        var defaults = RunnerConfig.from(ConfigSource.of(required())).requests();
        assertThat(defaults.routingId(RequestKind.SCHEDULE)).isEqualTo("AODB");
        assertThat(defaults.routingId(RequestKind.REFERENCE)).isEqualTo("AODB");

        var one = RunnerConfig.from(ConfigSource.of(required("msgx.requests.routing-id", "SIS"))).requests();
        assertThat(one.routingId(RequestKind.SCHEDULE)).as("version 2's key still sets both").isEqualTo("SIS");
        assertThat(one.routingId(RequestKind.REFERENCE)).isEqualTo("SIS");

        var each = RunnerConfig.from(ConfigSource.of(required("msgx.requests.routing-id", "SIS",
                "msgx.requests.reference-routing-id", "SIS-REF"))).requests();
        assertThat(each.routingId(RequestKind.SCHEDULE)).isEqualTo("SIS");
        assertThat(each.routingId(RequestKind.REFERENCE)).isEqualTo("SIS-REF");

        assertThatThrownBy(() -> RunnerConfig.from(ConfigSource.of(required(
                "msgx.requests.schedule-routing-id", "X".repeat(33))))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("msgx.requests.schedule-routing-id (default: msgx.requests.routing-id) must be 1 "
                        + "to 32 characters");
        assertThatThrownBy(() -> RunnerConfig.from(ConfigSource.of(required("msgx.requests.routing-id",
                "X".repeat(33))))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("msgx.requests.routing-id must be 1 to 32 characters");
    }

    @Test
    void requests_carry_no_xsi_attributes_unless_a_schema_location_is_configured() {
        assertThat(RunnerConfig.from(ConfigSource.of(required())).requests().writesSchemaLocation()).isFalse();
        assertThat(RunnerConfig.from(ConfigSource.of(required("msgx.requests.schema-location", "SIS.xsd"))).requests()
                .schemaLocation()).isEqualTo("SIS.xsd");
        assertThatThrownBy(() -> RunnerConfig.from(ConfigSource.of(required("msgx.requests.schema-location",
                "my schema.xsd")))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("msgx.requests.schema-location must be empty (no xsi attributes) or a schema "
                        + "location");
    }

    @Test
    void the_accepted_mailbox_statuses_default_to_valid_an_empty_value_turns_the_check_off_and_null_is_refused()
            throws Exception {
        var required = Map.of("msgx.store.url", "jdbc:postgresql://db/msgx", "msgx.mailbox.url", "jdbc:mysql://aodb/sis",
                "msgx.kafka.enabled", "false");
        var defaults = RunnerConfig.from(ConfigSource.of(required)).processing().acceptedStatuses();
        assertThat(defaults.statuses()).containsExactly("VALID");
        assertThat(RunnerConfig.from(ConfigSource.of(required)).describe())
                .containsEntry(Keys.MAILBOX_ACCEPTED_STATUSES, "VALID (and NULL)");

        var env = new java.util.HashMap<>(Map.of("MSGX_STORE_URL", "jdbc:postgresql://db/msgx",
                "MSGX_MAILBOX_URL", "jdbc:mysql://aodb/sis", "MSGX_KAFKA_ENABLED", "false",
                "MSGX_MAILBOX_ACCEPTED_STATUSES", " valid , Pending "));
        assertThat(RunnerConfig.from(ConfigSource.load(null, env)).processing().acceptedStatuses().statuses())
                .as("trimmed, any case").containsExactly("PENDING", "VALID");

        env.put("MSGX_MAILBOX_ACCEPTED_STATUSES", "");
        var off = RunnerConfig.from(ConfigSource.load(null, env));
        assertThat(off.processing().acceptedStatuses().off()).as("an empty value: the check off").isTrue();
        assertThat(off.describe().get(Keys.MAILBOX_ACCEPTED_STATUSES)).startsWith("(empty: the status check is off");
        var yaml = dir.resolve("off.yml");
        Files.writeString(yaml, """
                msgx:
                  store:   { url: "jdbc:postgresql://db:5432/msgx" }
                  mailbox: { url: "jdbc:mysql://aodb:3306/sis", accepted-statuses: [] }
                  kafka:   { enabled: false }
                """);
        assertThat(RunnerConfig.from(ConfigSource.load(yaml, Map.of())).processing().acceptedStatuses().off())
                .as("an empty YAML list too").isTrue();

        for (var refused : Map.of("VALID,NULL", "entry 'NULL' is not needed: a NULL status is always accepted",
                "*", "entry '*' is not a status; to accept every status (the check off) set the key to an empty value")
                .entrySet()) {
            var wrong = new java.util.HashMap<>(required);
            wrong.put(Keys.MAILBOX_ACCEPTED_STATUSES, refused.getKey());
            assertThatThrownBy(() -> RunnerConfig.from(ConfigSource.of(wrong))).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("msgx.mailbox.accepted-statuses: " + refused.getValue());
        }
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
        var source = ConfigSource.of(Map.of("msgx.store.url", "jdbc:postgresql://db/msgx", "msgx.kafka.enabled", "false",
                "msgx.mailbox.url", "jdbc:mysql://aodb/sis", "msgx.http.max-body-bytes", "x",
                "msgx.store.password", "s3cret"));
        assertThatThrownBy(() -> RunnerConfig.from(source)).hasMessageNotContaining("s3cret");
    }

    @Test
    void the_variable_of_a_key_is_upper_case_with_underscores() {
        assertThat(ConfigSource.variableOf("msgx.pipeline.claim-batch")).isEqualTo("MSGX_PIPELINE_CLAIM_BATCH");
        assertThat(ConfigSource.variableOf(Keys.STORE_URL)).isEqualTo("MSGX_STORE_URL");
        assertThat(ConfigReader.toDuration("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(ConfigReader.toDuration("7d")).isEqualTo(Duration.ofDays(7));
        assertThat(ConfigReader.toDuration("PT2M")).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void kafka_is_required_unless_turned_off_on_purpose() {
        var withoutKafka = ConfigSource.of(Map.of("msgx.store.url", "jdbc:postgresql://db/msgx",
                "msgx.mailbox.url", "jdbc:mysql://aodb/sis"));
        assertThatThrownBy(() -> RunnerConfig.from(withoutKafka)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("msgx.kafka.bootstrap-servers: missing")
                .hasMessageContaining("MSGX_KAFKA_BOOTSTRAP_SERVERS")
                .hasMessageContaining("msgx.kafka.enabled=false");

        var off = RunnerConfig.from(ConfigSource.of(Map.of("msgx.store.url", "jdbc:postgresql://db/msgx",
                "msgx.mailbox.url", "jdbc:mysql://aodb/sis", "msgx.kafka.enabled", "false")));
        assertThat(off.kafka().sink()).isNull();
        var on = RunnerConfig.from(ConfigSource.of(Map.of("msgx.store.url", "jdbc:postgresql://db/msgx",
                "msgx.mailbox.url", "jdbc:mysql://aodb/sis", "msgx.kafka.bootstrap-servers", "k:9092")));
        assertThat(on.kafka().enabled()).isTrue();
        assertThat(on.kafka().sink().bootstrapServers()).isEqualTo("k:9092");
    }

    @Test
    void an_msgx_variable_that_names_no_key_is_refused_with_the_nearest_key() {
        var environment = new java.util.HashMap<>(Map.of("MSGX_STORE_URL", "jdbc:postgresql://db/msgx",
                "MSGX_MAILBOX_URL", "jdbc:mysql://aodb/sis", "MSGX_KAFKA_ENABLED", "false",
                "MSGX_PIPELINE_CLAIM_BACH", "50",
                "MSGX_LOG_LEVEL", "DEBUG", "MSGX_KAFKA_LIB", "/opt/kafka/libs", "MSGX_TEST_ORACLE_URL", "jdbc:oracle:x",
                "MSGX_KAFKA_PRODUCER_COMPRESSION_TYPE", "lz4", "PATH", "/usr/bin"));
        environment.put("MSGX_HEAP", "2g"); // the launcher's (bin/msgexchange) passes through to the JVM's environment
        environment.put("MSGX_JAVA_OPTS", "-Dfile.encoding=UTF-8");
        assertThatThrownBy(() -> RunnerConfig.from(ConfigSource.load(null, environment)))
                .isInstanceOf(ConfigException.class)
                .satisfies(e -> assertThat(((ConfigException) e).problems()).as("only the misspelt variable").hasSize(1))
                .hasMessageContaining("environment variable MSGX_PIPELINE_CLAIM_BACH: names no key this build knows; "
                        + "did you mean MSGX_PIPELINE_CLAIM_BATCH (msgx.pipeline.claim-batch)?");

        var fine = new java.util.HashMap<>(environment);
        fine.remove("MSGX_PIPELINE_CLAIM_BACH");
        var config = RunnerConfig.from(ConfigSource.load(null, fine));
        assertThat(config.kafka().enabled()).isFalse();
    }

    @Test
    void a_misspelt_key_in_the_file_gets_the_nearest_key_too() {
        var source = ConfigSource.of(Map.of("msgx.store.url", "jdbc:postgresql://db/msgx",
                "msgx.mailbox.url", "jdbc:mysql://aodb/sis", "msgx.kafka.enabled", "false",
                "msgx.store.statment-timeout", "10s"));
        assertThatThrownBy(() -> RunnerConfig.from(source))
                .hasMessageContaining("msgx.store.statment-timeout (from given): not a key this build knows; "
                        + "did you mean msgx.store.statement-timeout?");
    }

    @Test
    void the_socket_timeout_must_leave_the_server_time_to_cancel_a_statement_first() {
        var source = ConfigSource.of(Map.of("msgx.store.url", "jdbc:postgresql://db/msgx",
                "msgx.mailbox.url", "jdbc:mysql://aodb/sis", "msgx.kafka.enabled", "false",
                "msgx.store.statement-timeout", "60s", "msgx.store.socket-timeout", "30s"));
        assertThatThrownBy(() -> RunnerConfig.from(source)).hasMessageContaining("msgx.store.socket-timeout = 30s")
                .hasMessageContaining("at least 5 s more than msgx.store.statement-timeout");
        var off = RunnerConfig.from(ConfigSource.of(Map.of("msgx.store.url", "jdbc:postgresql://db/msgx",
                "msgx.mailbox.url", "jdbc:mysql://aodb/sis", "msgx.kafka.enabled", "false",
                "msgx.store.statement-timeout", "0s", "msgx.store.socket-timeout", "0s")));
        assertThat(off.store().statementTimeout()).isZero();
    }

    @Test
    void the_check_lists_every_key_with_its_value_and_source_and_masks_every_secret() throws Exception {
        var file = dir.resolve("site.properties");
        Files.writeString(file, String.join("\n", "msgx.store.url=jdbc:postgresql://db/msgx?password=UrlSecret1",
                "msgx.mailbox.url=jdbc:mysql://msgx:UrlSecret2@aodb/sis", "msgx.kafka.bootstrap-servers=k:9092",
                "msgx.kafka.producer.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule "
                        + "required username=\"x\" password=\"JaasSecret3\";",
                "msgx.kafka.producer.ssl.truststore.password=TrustSecret4"));
        var report = RunnerConfig.check(ConfigSource.load(file, Map.of("MSGX_STORE_PASSWORD", "EnvSecret5",
                "MSGX_HTTP_TOKEN", "TokenSecret6", "MSGX_PIPELINE_CLAIM_BATCH", "50")));

        assertThat(report.valid()).as(report.problems().toString()).isTrue();
        var byKey = new java.util.HashMap<String, ConfigReport.Entry>();
        report.entries().forEach(entry -> byKey.put(entry.key(), entry));
        assertThat(byKey.keySet()).containsAll(Keys.ALL);
        assertThat(byKey.get(Keys.CLAIM_BATCH)).isEqualTo(new ConfigReport.Entry(Keys.CLAIM_BATCH, "50",
                "env MSGX_PIPELINE_CLAIM_BATCH"));
        assertThat(byKey.get(Keys.MAX_COMMIT_DELAY)).isEqualTo(new ConfigReport.Entry(Keys.MAX_COMMIT_DELAY, "30s", "default"));
        assertThat(byKey.get(Keys.STORE_STATEMENT_TIMEOUT).value()).isEqualTo("1m");
        assertThat(byKey.get(Keys.KAFKA_BOOTSTRAP)).isEqualTo(new ConfigReport.Entry(Keys.KAFKA_BOOTSTRAP, "k:9092",
                "site.properties"));
        assertThat(byKey.get(Keys.STORE_PASSWORD).value()).isEqualTo("(set)");
        assertThat(byKey.get(Keys.MAILBOX_PASSWORD).value()).isEqualTo("(none)");
        assertThat(byKey.get(Keys.STORE_URL).value()).isEqualTo("jdbc:postgresql://db/msgx?password=***");
        assertThat(byKey.get("msgx.kafka.producer.ssl.truststore.password").value()).isEqualTo("(set)");
        assertThat(report.entries().toString()).doesNotContain("UrlSecret1", "UrlSecret2", "JaasSecret3",
                "TrustSecret4", "EnvSecret5", "TokenSecret6");

        var refused = RunnerConfig.check(ConfigSource.of(Map.of("msgx.store.url", "jdbc:postgresql://db/msgx",
                "msgx.pipeline.claim-batch", "lots")));
        assertThat(refused.valid()).isFalse();
        assertThat(refused.problems()).anyMatch(problem -> problem.startsWith("msgx.mailbox.url: missing"))
                .anyMatch(problem -> problem.startsWith("msgx.kafka.bootstrap-servers: missing"))
                .anyMatch(problem -> problem.startsWith("msgx.pipeline.claim-batch = 'lots'"));
    }
}
