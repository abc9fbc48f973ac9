package io.msgx.runner.console;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.audit.Actor;
import io.msgx.pipeline.port.OperatorAudit;
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

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.LinkedHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The console's audit trail page (issue 36, D-137) over HTTP on PostgreSQL: an action taken on the console is recorded
 * with the caller's name and remote address, a CLI action beside it, and {@code /console/audit} shows both newest
 * first, filtered, escaped like every page; it is read-only (no POST route) and linked from the navigation.
 */
class ConsoleAuditTest {

    private static final String TOKEN = "console-audit-token";

    @RegisterExtension
    final RealServices services = new RealServices();

    private MsgExchange exchange;
    private HttpApi http;

    @BeforeEach
    void start() throws Exception {
        var keys = new LinkedHashMap<>(services.runnerKeys());
        keys.put("msgx.http.port", "0");
        var credentials = java.nio.file.Files.createTempFile("msgx-credentials", ".txt");
        credentials.toFile().deleteOnExit();
        java.nio.file.Files.writeString(credentials, "eve operator " + io.msgx.runner.http.Credential.hashOf(TOKEN) + "\n");
        keys.put("msgx.http.credentials-file", credentials.toString());
        exchange = MsgExchange.builder().config(keys).build();
        http = HttpApi.forExchange(exchange).start();
    }

    @AfterEach
    void stop() throws Exception {
        if (http != null) {
            http.close();
        }
        if (exchange != null) {
            exchange.close();
        }
    }

    @Test
    void console_and_cli_actions_are_shown_newest_first_with_who_and_from_where_and_escaped() throws Exception {
        long dead = deadNotification("1001");
        assertThatThrownBy(() -> new OperatorActions(exchange).requestReference("<b>GL</b>",
                Actor.cli("ops", "cli@ops-host (os user ops)"))).as("a hostile type is refused")
                .isInstanceOf(IllegalArgumentException.class);
        Thread.sleep(5); // a later time for the console's row
        assertThat(post("/console/events/purge", "ids=" + dead + "&ids=424242", "<i>mallory</i>").statusCode())
                .isEqualTo(200);

        var rows = exchange.store().operatorAudit().newestFirst(OperatorAudit.Filter.newest(10));
        assertThat(rows).hasSize(2);
        var purge = rows.get(0).entry();
        assertThat(purge.actor()).as("the credential's name, not the X-Msgx-Operator header's")
                .isEqualTo(Actor.console("eve", "127.0.0.1"));
        assertThat(purge.action()).isEqualTo("events-purge");

        var page = get("/console/audit");
        assertThat(page.statusCode()).isEqualTo(200);
        var body = page.body();
        assertThat(body).contains("<a href=\"/console/audit\">Audit trail</a>", "id=\"audit-filter\"")
                .contains("<tr data-audit=\"" + rows.get(0).id() + "\"", "<tr data-audit=\"" + rows.get(1).id() + "\"")
                .contains("<td>eve</td><td>console</td><td>127.0.0.1</td><td>events-purge</td>",
                        "<td>PARTLY</td>", "not DEAD events: left alone")
                .contains("<td>ops</td><td>cli</td><td>cli@ops-host (os user ops)</td><td>request-reference</td>",
                        "type &lt;b&gt;GL&lt;/b&gt;", "<td>REFUSED</td>")
                .doesNotContain("mallory", "<b>GL</b>");
        assertThat(body.indexOf("data-audit=\"" + rows.get(0).id() + "\""))
                .as("newest first").isLessThan(body.indexOf("data-audit=\"" + rows.get(1).id() + "\""));

        var onlyOps = get("/console/audit?operator=ops&action=request-reference&since=1d&limit=5").body();
        assertThat(onlyOps).contains("data-audit=\"" + rows.get(1).id() + "\"")
                .doesNotContain("data-audit=\"" + rows.get(0).id() + "\"");
        assertThat(get("/console/audit?operator=nobody").body()).contains("<p>None.</p>");
        var bad = get("/console/audit?since=%3Cscript%3E");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("&lt;script&gt;").doesNotContain("<script>alert").doesNotContain("data-audit=");

        assertThat(post("/console/audit", "operator=x", "eve").statusCode()).as("read-only: no such action")
                .isNotEqualTo(200);
        assertThat(exchange.store().operatorAudit().newestFirst(OperatorAudit.Filter.newest(10))).hasSize(2);
    }

    private long deadNotification(String flid) {
        long id = exchange.store().inTransaction(tx -> tx.notifications().append(new OutboxEvent(OutboxTarget.KAFKA_MSG,
                FlightId.of(flid), OutboxEvent.EventType.UPSERT, 1, 1, "{\"flid\":\"" + flid + "\"}", Instant.now())));
        exchange.store().deadLetters().recordDeliveryFailure(id, "RecordTooLargeException", Instant.now(), true,
                Instant.now());
        return id;
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + http.port() + path);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri(path))
                .header("Authorization", "Bearer " + TOKEN).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String form, String operator) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri(path))
                .header("Authorization", "Bearer " + TOKEN).header("X-Msgx-Operator", operator)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
