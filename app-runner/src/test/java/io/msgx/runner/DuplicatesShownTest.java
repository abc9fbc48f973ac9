package io.msgx.runner;

import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.testing.SisMessages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Same identity, other content (Q15, issue 24 point 6): a corrected resend under the same SEQN is still skipped, but
 * its reason, the console's message page and the {@code duplicates} counter tell it from a plain resend.
 */
class DuplicatesShownTest {

    @RegisterExtension
    final RealServices services = new RealServices();

    private final SisMessages sis = new SisMessages();

    @Test
    void a_corrected_resend_is_skipped_as_content_differs_counted_and_shown_with_a_link_to_its_holder() throws Exception {
        var original = sis.schedule(fltr("1001", "11MAR240835", "STND", "501"));
        long first = services.deliver(original);
        long corrected = services.deliver(original.replace("<STND>501</STND>", "<STND>502</STND>"));
        long resent = services.deliver(original);
        try (var running = RunningExchange.start(services.runnerKeys())) {
            var exchange = running.exchange();
            RunningExchange.await("the three messages end", 30, () ->
                    exchange.store().queue().find(resent).map(r -> r.status() == ProcStatus.SKIPPED).orElse(false));
            showsTheDuplicates(running, first, corrected, resent);
        }
    }

    private static void showsTheDuplicates(RunningExchange running, long first, long corrected, long resent)
            throws Exception {
        var exchange = running.exchange();

        assertThat(exchange.store().queue().find(corrected).orElseThrow().lastError())
                .isEqualTo("duplicate-of:" + first + ":content-differs");
        assertThat(exchange.store().queue().find(resent).orElseThrow().lastError()).isEqualTo("duplicate-of:" + first);
        assertThat(running.get("/console/message?id=" + corrected).body()).contains("id=\"content-differs\"")
                .contains("<a href=\"/console/message?id=" + first + "\">message " + first + "</a>");
        assertThat(running.get("/console/message?id=" + resent).body()).doesNotContain("content-differs\"")
                .contains("A duplicate of <a href=\"/console/message?id=" + first + "\">");
        assertThat(running.get("/metrics").body()).contains("msgx_pipeline_duplicates_messages_total{content=\"differs\"} 1.0",
                "msgx_pipeline_duplicates_messages_total{content=\"same\"} 1.0");
    }
}
