package io.msgx.runner.console;

import io.msgx.adapter.mysql.TestMailboxDatabase;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.runner.RealServices;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.http.HttpApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's reference pages over HTTP, without a browser (ConsoleBrowserTest clicks through them when Chromium is
 * installed): a GLST UPD in the real form, with markup, Chinese text and an attribute, shown escaped; and the message
 * page of one that carries an element nobody maps lists it.
 */
class ConsoleReferencePageTest {

    static final String HOSTILE_GATES = "<MSG><META><SNDR>AODB</SNDR><SEQN>9001</SEQN><DTTM>20240311060000</DTTM>"
            + "<TYPE>GLST</TYPE><STYP>UPD</STYP></META><RECS>2</RECS>"
            + "<GLST><GCOD>G&lt;1&gt;</GCOD><GTNM>&lt;script&gt;alert('x')&lt;/script&gt;</GTNM>"
            + "<GTML MVIN=\"A\">T2</GTML></GLST>"
            + "<GLST><GCOD>G17</GCOD><GTNM>Gate 17</GTNM><GNMC>17号登机口</GNMC></GLST></MSG>";
    private static final String TOKEN = "console-reference-token";

    @RegisterExtension
    final RealServices services = new RealServices();

    private MsgExchange exchange;
    private HttpApi http;

    @AfterEach
    void stop() throws Exception {
        if (http != null) {
            http.close();
        }
        if (exchange != null) {
            exchange.close();
        }
    }

    private HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + path))
                .header("Authorization", "Bearer " + TOKEN).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void types_records_and_one_record_are_shown_escaped() throws Exception {
        long id;
        try (var connection = services.aodbConnection()) {
            id = TestMailboxDatabase.insertInbound(connection, HOSTILE_GATES);
        }
        var keys = new LinkedHashMap<>(services.runnerKeys());
        keys.put("msgx.pipeline.poll-interval", "200ms");
        keys.put("msgx.http.port", "0");
        keys.put("msgx.http.token", TOKEN);
        exchange = MsgExchange.builder().config(keys).build();
        http = HttpApi.forExchange(exchange).start();
        exchange.start();
        var deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (exchange.store().queue().find(id).map(r -> r.status() != ProcStatus.SUCCEEDED).orElse(true)) {
            assertThat(Instant.now()).as("the gates are applied within 30 s").isBefore(deadline);
            Thread.sleep(100);
        }

        var types = get("/console/reference");
        assertThat(types.statusCode()).isEqualTo(200);
        assertThat(types.body()).contains("<a href=\"/console/reference?type=GLST\">GLST</a></td><td>2</td>");

        var records = get("/console/reference?type=GLST");
        assertThat(records.statusCode()).isEqualTo(200);
        assertThat(records.body()).contains("17号登机口").contains("key=G%3C1%3E\">G&lt;1&gt;</a>")
                .contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;").doesNotContain("<script>alert");

        var one = get("/console/reference?type=GLST&key=G%3C1%3E");
        assertThat(one.statusCode()).isEqualTo(200);
        assertThat(one.body()).contains("id=\"document\"").contains("&quot;@MVIN&quot; : &quot;A&quot;")
                .contains("/console/message?id=" + id).doesNotContain("<script>alert");

        var message = get("/console/message?id=" + id);
        assertThat(message.body()).as("everything of the gates is mapped").doesNotContain("id=\"unmapped\"");
        long stray;
        try (var connection = services.aodbConnection()) {
            stray = TestMailboxDatabase.insertInbound(connection, HOSTILE_GATES.replace("<SEQN>9001", "<SEQN>9002")
                    .replace("</MSG>", "<XTRA>unknown</XTRA></MSG>"));
        }
        while (exchange.store().queue().find(stray).map(r -> r.status() != ProcStatus.SUCCEEDED).orElse(true)) {
            assertThat(Instant.now()).as("the second message is applied within 30 s").isBefore(deadline);
            Thread.sleep(100);
        }
        assertThat(get("/console/message?id=" + stray).body()).as("D-65: the message page shows what is not mapped")
                .contains("<h3>Not mapped</h3>").contains("<ul id=\"unmapped\"><li><code>MSG/XTRA</code></li></ul>");

        assertThat(get("/console/reference?type=GLST&key=nope").statusCode()).isEqualTo(404);
        assertThat(get("/console/reference?type=NOPE").statusCode()).isEqualTo(404);
    }
}
