package io.msgx.runner.console;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.runner.RealServices;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.http.HttpApi;
import io.msgx.runner.operations.OperatorActions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's DEAD events page (D-67, D-68) over HTTP on PostgreSQL: it lists every DEAD outbox row with resend and
 * purge buttons; the actions change only DEAD rows, answer what they did, and are audited as the other operator
 * actions are; an action without the form token from a browser session is refused and changes nothing.
 */
class ConsoleDeadEventsTest {

    private static final String TOKEN = "console-events-token";

    @RegisterExtension
    final RealServices services = new RealServices();

    private final ListAppender<ILoggingEvent> audit = new ListAppender<>();
    private MsgExchange exchange;
    private HttpApi http;

    @BeforeEach
    void start() throws Exception {
        var keys = new LinkedHashMap<>(services.runnerKeys()); // the page works on the outbox; nothing is published
        keys.put("msgx.http.port", "0");
        keys.put("msgx.http.token", TOKEN);
        exchange = MsgExchange.builder().config(keys).build();
        http = HttpApi.forExchange(exchange).start();
        audit.start();
        var auditLog = (Logger) LoggerFactory.getLogger(OperatorActions.class);
        auditLog.setLevel(ch.qos.logback.classic.Level.INFO); // the tests' root is WARN; AUDIT lines are INFO
        auditLog.addAppender(audit);
    }

    @AfterEach
    void stop() throws Exception {
        var auditLog = (Logger) LoggerFactory.getLogger(OperatorActions.class);
        auditLog.detachAppender(audit);
        auditLog.setLevel(null);
        if (http != null) {
            http.close();
        }
        if (exchange != null) {
            exchange.close();
        }
    }

    @Test
    void dead_events_are_listed_and_resent_or_purged_from_the_page_and_each_action_is_audited() throws Exception {
        long dead = deadNotification("1001", 1, "RecordTooLargeException: <b>too large</b>");
        long other = deadNotification("1003", 4, "TopicAuthorizationException: not authorised");
        long pending = notification("1001", 2);

        var page = get("/console/events");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<tr data-event=\"" + dead + "\">", "<tr data-event=\"" + other + "\">")
                .contains("KAFKA:msg").contains("<a href=\"/console/flight?flid=1001\">1001</a>")
                .contains("RecordTooLargeException: &lt;b&gt;too large&lt;/b&gt;").doesNotContain("<b>too large</b>")
                .contains("action=\"/console/events/resend\"", "action=\"/console/events/purge\"",
                        "id=\"events-resend-all\"", "id=\"events-rearm\"")
                .doesNotContain("data-event=\"" + pending + "\"");

        var resent = post("/console/events/resend", "ids=" + dead + "&ids=" + pending);
        assertThat(resent.statusCode()).isEqualTo(200);
        assertThat(resent.body()).contains("Back to PENDING: [" + dead + "]").contains("left alone: [" + pending + "]");
        assertThat(row(dead).status()).isEqualTo(OutboxEntry.DeliveryStatus.PENDING);
        assertThat(row(dead).attempts()).isZero();

        var purged = post("/console/events/purge", "ids=" + other + "&ids=" + dead);
        assertThat(purged.statusCode()).isEqualTo(200);
        assertThat(purged.body()).contains("Deleted: [" + other + "]");
        assertThat(exchange.store().deadLetters().deadEvents(10)).isEmpty();
        assertThat(exchange.store().outboxQueries().pending(OutboxTarget.KAFKA_MSG, 10)).extracting(OutboxEntry::eventId)
                .as("a pending event is never purged").containsExactly(dead, pending);
        assertThat(get("/console/events").body()).contains("<p>None.</p>");

        assertThat(audit.list).extracting(ILoggingEvent::getFormattedMessage)
                .anySatisfy(line -> assertThat(line).startsWith("AUDIT console from 127.0.0.1 events resend by ")
                        .contains("asked [" + dead + ", " + pending + "]", "back to PENDING [" + dead + "]"))
                .anySatisfy(line -> assertThat(line).startsWith("AUDIT console from 127.0.0.1 events purge by ")
                        .contains("deleted [" + other + "]"));
    }

    @Test
    void a_flights_projection_is_rearmed_from_the_page_without_a_new_version() throws Exception {
        exchange.store().inTransaction(tx -> tx.projections().upsertProjection(new OutboxEvent(OutboxTarget.KAFKA_SCHD,
                FlightId.of("1002"), OutboxEvent.EventType.UPSERT, 7, 1, "{\"v\":7}", Instant.now())));
        exchange.store().projections().markProjectionsSent(Map.of(FlightId.of("1002"), 7L), Instant.now());

        var rearmed = post("/console/events/rearm", "flid=1002");
        assertThat(rearmed.statusCode()).isEqualTo(200);
        assertThat(rearmed.body()).contains("version 7");
        assertThat(exchange.store().outboxQueries().pending(OutboxTarget.KAFKA_SCHD, 10)).singleElement()
                .satisfies(row -> assertThat(row.event().stateVersion()).isEqualTo(7));
        assertThat(post("/console/events/rearm", "flid=1002").statusCode()).as("pending already").isEqualTo(409);
        assertThat(audit.list).extracting(ILoggingEvent::getFormattedMessage)
                .anySatisfy(line -> assertThat(line).contains("events rearm by", "FLID 1002", "PENDING again"));
    }

    @Test
    void an_action_from_a_browser_session_without_the_form_token_is_refused_and_changes_nothing() throws Exception {
        long dead = deadNotification("1001", 1, "RecordTooLargeException");
        var client = HttpClient.newHttpClient();
        var login = client.send(HttpRequest.newBuilder(uri("/console/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Origin", "http://127.0.0.1:" + http.port())
                .POST(HttpRequest.BodyPublishers.ofString("secret=" + TOKEN + "&next=/console/"))
                .build(), HttpResponse.BodyHandlers.ofString());
        var cookie = login.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];

        var refused = client.send(HttpRequest.newBuilder(uri("/console/events/purge"))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Cookie", cookie)
                .header("Origin", "http://127.0.0.1:" + http.port())
                .POST(HttpRequest.BodyPublishers.ofString("ids=" + dead)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(exchange.store().deadLetters().deadEvents(10)).extracting(d -> d.eventId()).containsExactly(dead);
    }

    private long notification(String flid, long version) {
        return exchange.store().inTransaction(tx -> tx.notifications().append(new OutboxEvent(OutboxTarget.KAFKA_MSG,
                FlightId.of(flid), OutboxEvent.EventType.UPSERT, version, 1,
                "{\"flid\":\"" + flid + "\",\"stateVersion\":" + version + "}", Instant.now())));
    }

    private long deadNotification(String flid, long version, String error) {
        long id = notification(flid, version);
        assertThat(exchange.store().deadLetters().recordDeliveryFailure(id, error, Instant.now(), true, Instant.now()))
                .isTrue();
        return id;
    }

    private OutboxEntry row(long eventId) {
        return exchange.store().outboxQueries().pending(OutboxTarget.KAFKA_MSG, 100).stream()
                .filter(e -> e.eventId() == eventId).findFirst().orElseThrow();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + http.port() + path);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri(path))
                .header("Authorization", "Bearer " + TOKEN).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String form) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri(path))
                .header("Authorization", "Bearer " + TOKEN)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
