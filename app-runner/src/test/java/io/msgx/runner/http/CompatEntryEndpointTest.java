package io.msgx.runner.http;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.inbox.CompatEntry;
import io.msgx.pipeline.mailbox.ForwardingMailbox;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.mailbox.MailboxUnavailableException;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.msgx.runner.http.HttpFixture.TOKEN;
import static io.msgx.runner.http.HttpFixture.VALID_XML;
import static io.msgx.runner.http.HttpFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

class CompatEntryEndpointTest {

    private final SettableClock clock = SettableClock.atExampleDay();
    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final H2TestStore store = H2TestStore.fresh();
    private HttpApi api;
    private HttpFixture http;

    @AfterEach
    void stop() {
        if (api != null) {
            api.stop(Duration.ofSeconds(1));
        }
    }

    private void start(String token, long maxBody, Mailbox entryMailbox, boolean withEntry) {
        var entry = withEntry ? new CompatEntry(entryMailbox, store.queue(), new JacksonXmlCodec(), clock) : null;
        api = new HttpApi(HttpFixture.settings(token, maxBody, Duration.ofSeconds(1)), entry, List.of(),
                new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)).start();
        http = new HttpFixture(api);
    }

    private void start() {
        start(TOKEN, HttpSettings.DEFAULT_MAX_BODY_BYTES, mailbox, true);
    }

    @Test
    void the_right_token_puts_the_message_in_the_mailbox_and_enqueues_it() throws Exception {
        start();

        var response = http.post(TOKEN, VALID_XML);

        assertThat(response.statusCode()).isEqualTo(202);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
        var body = json(response);
        long msgId = body.get("msgId").asLong();
        assertThat(body.get("enqueued").asBoolean()).isTrue();
        assertThat(mailbox.readText(msgId)).hasValue(VALID_XML);
        assertThat(store.queue().find(msgId)).isPresent();
    }

    @Test
    void a_body_without_content_type_is_accepted_as_xml() throws Exception {
        start();

        var response = http.post(TOKEN, null, VALID_XML.getBytes(StandardCharsets.UTF_8));

        assertThat(response.statusCode()).isEqualTo(202);
    }

    @Test
    void without_a_token_the_answer_is_401_and_nothing_is_written() throws Exception {
        start();

        var response = http.post(null, VALID_XML);

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                value -> assertThat(value).startsWith("Bearer"));
        assertNothingWritten();
    }

    @Test
    void a_wrong_token_is_401_and_nothing_is_written() throws Exception {
        start();

        var wrong = http.post(TOKEN + "x", VALID_XML);
        var otherScheme = http.send(HttpRequest.newBuilder(http.uri("/cminmsgs/send"))
                .header("Authorization", "Basic " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString(VALID_XML)));

        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                value -> assertThat(value).startsWith("Bearer").contains("invalid_token"));
        assertThat(wrong.body()).doesNotContain(TOKEN);
        assertThat(otherScheme.statusCode()).isEqualTo(401);
        assertNothingWritten();
    }

    @Test
    void the_bearer_scheme_is_case_insensitive() throws Exception {
        start();

        var response = http.send(HttpRequest.newBuilder(http.uri("/cminmsgs/send"))
                .header("Authorization", "bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString(VALID_XML)));

        assertThat(response.statusCode()).isEqualTo(202);
    }

    @Test
    void without_a_configured_token_the_entry_is_disabled_with_403_naming_the_key() throws Exception {
        start(null, HttpSettings.DEFAULT_MAX_BODY_BYTES, mailbox, true);

        var withSomeToken = http.post("anything", VALID_XML);
        var withoutToken = http.post(null, VALID_XML);

        assertThat(withSomeToken.statusCode()).isEqualTo(403);
        assertThat(withoutToken.statusCode()).isEqualTo(403);
        assertThat(json(withSomeToken).get("error").asText()).contains("injector").contains("msgx.http.credentials-file");
        assertNothingWritten();
    }

    @Test
    void without_an_entry_wired_the_answer_is_403_even_with_the_token() throws Exception {
        start(TOKEN, HttpSettings.DEFAULT_MAX_BODY_BYTES, mailbox, false);

        var response = http.post(TOKEN, VALID_XML);

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(json(response).get("error").asText()).contains("msgx.mailbox.read-only");
        assertNothingWritten();
    }

    @Test
    void a_body_over_the_limit_is_413_and_nothing_is_written() throws Exception {
        start(TOKEN, 1024, mailbox, true);
        var padded = VALID_XML + "<!--" + "x".repeat(4096) + "-->";

        var response = http.post(TOKEN, padded);

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(json(response).get("error").asText()).contains("1024").contains("msgx.http.max-body-bytes");
        assertNothingWritten();
    }

    @Test
    void a_chunked_body_is_read_up_to_the_limit_only() throws Exception {
        start(TOKEN, 1024, mailbox, true);
        var tooLong = (VALID_XML + "<!--" + "x".repeat(4096) + "-->").getBytes(StandardCharsets.UTF_8);

        var over = http.send(HttpRequest.newBuilder(http.uri("/cminmsgs/send"))
                .header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(tooLong))));

        assertThat(over.statusCode()).isEqualTo(413);
        assertNothingWritten();
        var fits = http.send(HttpRequest.newBuilder(http.uri("/cminmsgs/send"))
                .header("Authorization", "Bearer " + TOKEN)
                .POST(HttpRequest.BodyPublishers.ofInputStream(
                        () -> new java.io.ByteArrayInputStream(VALID_XML.getBytes(StandardCharsets.UTF_8)))));
        assertThat(fits.statusCode()).isEqualTo(202);
    }

    @Test
    void a_declared_length_over_the_limit_is_answered_without_reading_the_body() throws Exception {
        start(TOKEN, 1024, mailbox, true);

        // Declares 10 MiB and sends none of it: an answer at all proves the body was not read.
        try (var socket = new Socket("127.0.0.1", api.port())) {
            socket.setSoTimeout(5_000);
            var request = "POST /cminmsgs/send HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + TOKEN
                    + "\r\nContent-Type: application/xml\r\nContent-Length: " + (10 * 1024 * 1024) + "\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();

            assertThat(statusLine(socket.getInputStream())).startsWith("HTTP/1.1 413");
        }
        assertNothingWritten();
    }

    @Test
    void malformed_xml_is_400_with_the_reason_and_nothing_is_written() throws Exception {
        start();

        var response = http.post(TOKEN, "<MSG><META>");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).get("error").asText()).isNotBlank();
        assertNothingWritten();
    }

    @Test
    void a_body_that_is_not_utf8_is_400() throws Exception {
        start();

        var response = http.post(TOKEN, "application/xml", new byte[]{'<', (byte) 0xC3, (byte) 0x28, '>'});

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response).get("error").asText()).contains("UTF-8");
        assertNothingWritten();
    }

    @Test
    void a_content_type_that_is_neither_xml_nor_text_is_415() throws Exception {
        start();

        var json = http.post(TOKEN, "application/json", VALID_XML.getBytes(StandardCharsets.UTF_8));
        var latin1 = http.post(TOKEN, "text/xml; charset=ISO-8859-1", VALID_XML.getBytes(StandardCharsets.UTF_8));
        var soapLike = http.post(TOKEN, "application/sis+xml", VALID_XML.getBytes(StandardCharsets.UTF_8));

        assertThat(json.statusCode()).isEqualTo(415);
        assertThat(latin1.statusCode()).isEqualTo(415);
        assertThat(soapLike.statusCode()).isEqualTo(202);
    }

    @Test
    void an_unwritable_mailbox_is_503_with_retry_after() throws Exception {
        start(TOKEN, HttpSettings.DEFAULT_MAX_BODY_BYTES, new AppendFailsWhenUnavailable(mailbox), true);
        mailbox.setUnavailable(true);

        var response = http.post(TOKEN, VALID_XML);

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("5");
        assertThat(json(response).get("error").asText()).contains("again after 5 s");
        mailbox.setUnavailable(false);
        assertNothingWritten();
    }

    @Test
    void get_on_the_entry_is_405() throws Exception {
        start();

        var response = http.get("/cminmsgs/send");

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).hasValue("POST");
    }

    @Test
    void an_unknown_path_is_404() throws Exception {
        start();

        assertThat(http.get("/nothing/here").statusCode()).isEqualTo(404);
        assertThat(http.post(TOKEN, VALID_XML).statusCode()).isEqualTo(202);
        var below = http.send(HttpRequest.newBuilder(http.uri("/cminmsgs/send/more"))
                .header("Authorization", "Bearer " + TOKEN).POST(HttpRequest.BodyPublishers.ofString(VALID_XML)));
        assertThat(below.statusCode()).isEqualTo(404);
    }

    private void assertNothingWritten() {
        assertThat(mailbox.maxId()).isEmpty();
        assertThat(store.allRecords()).isEmpty();
    }

    private static String statusLine(InputStream in) throws IOException {
        var line = new StringBuilder();
        for (int c = in.read(); c != -1 && c != '\n'; c = in.read()) {
            line.append((char) c);
        }
        return line.toString().strip();
    }

    /**
     * The fake's {@code appendInbound} is a test hook that ignores {@code setUnavailable}; the port's contract
     * says an unreachable mailbox throws. This wrapper makes the append obey the switch.
     */
    private static final class AppendFailsWhenUnavailable extends ForwardingMailbox {

        private final InMemoryMailbox delegate;

        AppendFailsWhenUnavailable(InMemoryMailbox delegate) {
            super(delegate);
            this.delegate = delegate;
        }

        @Override
        public long appendInbound(String xml, Instant receivedAt) {
            if (delegate.isUnavailable()) {
                throw new MailboxUnavailableException("mailbox switched unavailable by the test", null);
            }
            return delegate.appendInbound(xml, receivedAt);
        }
    }
}
