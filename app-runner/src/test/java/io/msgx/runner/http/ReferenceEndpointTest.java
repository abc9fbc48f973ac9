package io.msgx.runner.http;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.pipeline.codec.ReferenceRecord;
import io.msgx.pipeline.port.ReferenceData;
import io.msgx.pipeline.record.ReferenceEntry;
import io.msgx.pipeline.store.StoreUnavailableException;
import io.msgx.pipeline.testing.PublishedContract;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;

import static io.msgx.runner.http.HttpFixture.TOKEN;
import static io.msgx.runner.http.HttpFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

class ReferenceEndpointTest {

    private final SettableClock clock = SettableClock.atExampleDay();
    private final H2TestStore store = H2TestStore.fresh();
    private HttpApi api;
    private HttpFixture http;

    @AfterEach
    void stop() {
        if (api != null) {
            api.stop(Duration.ofSeconds(1));
        }
    }

    private void start(String token, ReferenceData references) {
        api = new HttpApi(HttpFixture.settings(token, 1024, Duration.ofSeconds(1)), null, List.of(),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), references).start();
        http = new HttpFixture(api);
    }

    private void storeGates() {
        store.inTransaction(tx -> {
            tx.referenceData().refresh("GATE", List.of(gate("G28", "Gate \"28\""), gate("G01", "Gate 1")), 77,
                    clock.instant());
            return null;
        });
    }

    private static ReferenceRecord gate(String code, String description) {
        var fields = new LinkedHashMap<String, String>();
        fields.put("GTCD", code);
        fields.put("DESC", description);
        fields.put("TRML", "T2");
        return new ReferenceRecord(code, fields);
    }

    private java.net.http.HttpResponse<String> get(String path, String token) throws Exception {
        var request = HttpRequest.newBuilder(http.uri(path)).GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return http.send(request);
    }

    @Test
    void a_record_with_repeats_attributes_and_children_is_served_as_its_whole_document() throws Exception {
        var document = "{\"ITOP\":\"3U\",\"ONMC\":\"四川航空\",\"TRML\":[{\"@MVIN\":\"A\",\"#text\":\"T2\"},\"T1\"],"
                + "\"SUBC\":{\"CODE\":\"3U\",\"NAME\":\"\"}}";
        store.inTransaction(tx -> {
            tx.referenceData().refresh("AIRL", List.of(new ReferenceRecord("3U",
                    new io.msgx.pipeline.codec.ReferenceDocument(document))), 78, clock.instant());
            return null;
        });
        start(TOKEN, store.referenceData());

        var response = get("/reference/AIRL/3U", TOKEN);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response).get("record").toString()).isEqualTo(document);
        assertThat(json(get("/reference/AIRL", TOKEN)).get("records").get(0).get("record").toString()).isEqualTo(document);
    }

    @Test
    void one_record_is_json_with_its_fields_in_order() throws Exception {
        storeGates();
        start(TOKEN, store.referenceData());

        var response = get("/reference/GATE/G28", TOKEN);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
        assertThat(response.body()).contains("\"record\":{\"GTCD\":\"G28\",\"DESC\":\"Gate \\\"28\\\"\",\"TRML\":\"T2\"}");
        var body = json(response);
        assertThat(body.get("rtype").asText()).isEqualTo("GATE");
        assertThat(body.get("rkey").asText()).isEqualTo("G28");
        assertThat(PublishedContract.violations(PublishedContract.Topic.REFERENCE, response.body()))
                .as("the same shape as on the reference topic").isEmpty();
        assertThat(body.get("record").get("DESC").asText()).isEqualTo("Gate \"28\"");
        assertThat(body.get("msgId").asLong()).isEqualTo(77);
        assertThat(Instant.parse(body.get("updatedAt").asText())).isEqualTo(clock.instant());
    }

    @Test
    void a_type_lists_its_records_by_key_up_to_the_limit() throws Exception {
        storeGates();
        start(TOKEN, store.referenceData());

        var all = json(get("/reference/GATE", TOKEN));
        var limited = json(get("/reference/GATE?limit=1", TOKEN));

        assertThat(all.get("count").asInt()).isEqualTo(2);
        assertThat(all.get("records").get(0).get("rkey").asText()).isEqualTo("G01");
        assertThat(all.get("records").get(1).get("rkey").asText()).isEqualTo("G28");
        assertThat(limited.get("count").asInt()).isEqualTo(1);
        var bad = get("/reference/GATE?limit=zero", TOKEN);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(json(bad).get("error").asText()).contains("limit");
    }

    @Test
    void an_unknown_key_or_type_is_404() throws Exception {
        storeGates();
        start(TOKEN, store.referenceData());

        assertThat(get("/reference/GATE/G99", TOKEN).statusCode()).isEqualTo(404);
        assertThat(get("/reference/gate/G28", TOKEN).statusCode()).as("case-sensitive").isEqualTo(404);
        assertThat(get("/reference/BELT", TOKEN).statusCode()).isEqualTo(404);
        assertThat(json(get("/reference/BELT", TOKEN)).get("error").asText()).contains("BELT");
        assertThat(get("/reference", TOKEN).statusCode()).isEqualTo(404);
        assertThat(get("/reference/GATE/G28/more", TOKEN).statusCode()).isEqualTo(404);
        assertThat(get("/reference//G28", TOKEN).statusCode()).as("Jetty refuses an empty segment as ambiguous")
                .isEqualTo(400);
    }

    @Test
    void with_a_token_configured_reads_need_it() throws Exception {
        storeGates();
        start(TOKEN, store.referenceData());

        var missing = get("/reference/GATE/G28", null);
        var wrong = get("/reference/GATE/G28", TOKEN + "x");
        var right = get("/reference/GATE/G28", TOKEN);

        assertThat(missing.statusCode()).isEqualTo(401);
        assertThat(missing.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.body()).doesNotContain(TOKEN);
        assertThat(right.statusCode()).isEqualTo(200);
    }

    @Test
    void without_a_reader_credential_reads_are_off_not_open() throws Exception {
        storeGates();
        start(null, store.referenceData());

        var response = get("/reference/GATE/G28", null);

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(json(response).get("error").asText()).contains("reader").contains("msgx.http.credentials-file");
        assertThat(response.body()).doesNotContain("G28");
    }

    @Test
    void post_is_405() throws Exception {
        start(TOKEN, store.referenceData());

        var response = http.send(HttpRequest.newBuilder(http.uri("/reference/GATE"))
                .POST(HttpRequest.BodyPublishers.noBody()));

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).hasValue("GET");
    }

    @Test
    void an_unavailable_store_is_503_with_retry_after() throws Exception {
        start(TOKEN, new ReferenceData() {
            @Override
            public void refresh(String type, List<ReferenceRecord> records, long msgId, Instant now) {
                throw new UnsupportedOperationException();
            }

            @Override
            public Optional<ReferenceEntry> find(String type, String key) {
                throw new StoreUnavailableException("store down for the test", null);
            }

            @Override
            public List<ReferenceEntry> all(String type, int limit) {
                throw new StoreUnavailableException("store down for the test", null);
            }

            @Override
            public void remove(String type, java.util.Collection<String> keys, long msgId) {
                throw new UnsupportedOperationException();
            }

            @Override
            public java.util.Map<String, Long> writers(String type) {
                throw new UnsupportedOperationException();
            }

            @Override
            public java.util.Map<String, Long> countsByType() {
                throw new StoreUnavailableException("store down for the test", null);
            }
        });

        var response = get("/reference/GATE/G28", TOKEN);

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("5");
    }

    @Test
    void without_reference_data_wired_reads_are_404() throws Exception {
        api = new HttpApi(HttpFixture.settings(TOKEN, 1024, Duration.ofSeconds(1)), null, List.of(),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)).start();
        http = new HttpFixture(api);

        var response = get("/reference/GATE/G28", TOKEN);

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(json(response).get("error").asText()).contains("no reference data");
    }
}
