package io.msgx.pipeline.request;

import io.msgx.domain.flight.OperationDayRule;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.mailbox.Mailbox;
import io.msgx.pipeline.mailbox.MailboxUnavailableException;
import io.msgx.pipeline.mailbox.OutboundMessage;
import io.msgx.pipeline.store.InMemoryPipelineStore;
import io.msgx.pipeline.store.RequestKind;
import io.msgx.pipeline.store.RequestStatus;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.time.LocalDate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RequestSenderTest {

    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final InMemoryPipelineStore store = new InMemoryPipelineStore();
    private final SettableClock clock = SettableClock.atExampleDay();
    private final RequestSender sender = sender(mailbox);

    private RequestSender sender(Mailbox box) {
        return new RequestSender(box, store, RequestSettings.defaults(), OperationDayRule.defaults(), clock);
    }

    @Test
    void a_schedule_request_is_written_to_coutmsgs_and_marked_sent_with_its_outbound_id() {
        var request = sender.requestSchedule(LocalDate.of(2024, 3, 12));

        assertThat(request.status()).isEqualTo(RequestStatus.SENT);
        var written = mailbox.outbound();
        assertThat(written).singleElement().satisfies(row -> {
            assertThat(row.id()).isEqualTo(request.outMsgId());
            assertThat(row.message().routingId()).isEqualTo("AODB");
            assertThat(row.message().xml()).contains("<SNDR>RMS</SNDR>", "<SEQN>" + request.seqn() + "</SEQN>",
                    "<TYPE>RQFD</TYPE><STYP>NONE</STYP>", "<RQFD><STDB>12MAR240000</STDB><STDE>12MAR242359</STDE></RQFD>");
        });
        assertThat(request.coverDay()).isEqualTo(LocalDate.of(2024, 3, 12));
    }

    @Test
    void a_reference_request_names_its_type() {
        var request = sender.requestReference("glst");
        assertThat(request.kind()).isEqualTo(RequestKind.REFERENCE);
        assertThat(request.subject()).isEqualTo("GLST");
        assertThat(mailbox.outbound().get(0).message().xml()).contains("<TYPE>RQRD</TYPE><STYP>GLST</STYP>",
                "<RQRD><RTYP>GLST</RTYP></RQRD>");
    }

    @Test
    void a_new_request_for_the_same_day_expires_the_open_one() {
        var first = sender.requestSchedule(LocalDate.of(2024, 3, 12));
        clock.tick(java.time.Duration.ofMinutes(5));
        var second = sender.requestSchedule(LocalDate.of(2024, 3, 12));
        assertThat(store.requests().find(first.id()).orElseThrow().status()).isEqualTo(RequestStatus.EXPIRED);
        assertThat(second.status()).isEqualTo(RequestStatus.SENT);
        assertThat(second.seqn()).isNotEqualTo(first.seqn());
    }

    @Test
    void a_mailbox_that_is_down_leaves_the_request_pending_and_the_next_round_writes_it_once() {
        mailbox.setUnavailable(true);
        var request = sender.requestReference("STND");
        assertThat(request.status()).isEqualTo(RequestStatus.PENDING);
        mailbox.setUnavailable(false);

        var settled = sender.confirmPending(List.of(request));

        assertThat(settled).singleElement().satisfies(r -> assertThat(r.status()).isEqualTo(RequestStatus.SENT));
        assertThat(mailbox.outbound()).hasSize(1);
    }

    @Test
    void a_write_whose_confirmation_was_lost_is_found_again_and_never_resent() {
        Mailbox losesTheAnswer = (Mailbox) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Mailbox.class},
                (proxy, method, args) -> {
                    var result = method.invoke(mailbox, args);
                    if (method.getName().equals("appendOutbound")) {
                        throw new MailboxUnavailableException("connection lost after the insert", null);
                    }
                    return result;
                });
        var request = sender(losesTheAnswer).requestSchedule(LocalDate.of(2024, 3, 12));
        assertThat(request.status()).isEqualTo(RequestStatus.PENDING);
        assertThat(mailbox.outbound()).as("the insert itself happened").hasSize(1);

        var settled = sender.confirmPending(List.of(request)).get(0);

        assertThat(settled.status()).isEqualTo(RequestStatus.SENT);
        assertThat(settled.outMsgId()).isEqualTo(mailbox.outbound().get(0).id());
        assertThat(mailbox.outbound()).as("not written a second time").hasSize(1);
    }

    @Test
    void the_outbound_lookup_finds_only_rows_written_since_the_request() {
        long old = mailbox.appendOutbound(new OutboundMessage("<SEQN>5</SEQN>", "AODB", clock.instant().minusSeconds(60)));
        assertThat(mailbox.findOutbound("<SEQN>5</SEQN>", clock.instant())).isEmpty();
        assertThat(mailbox.findOutbound("<SEQN>5</SEQN>", clock.instant().minusSeconds(60))).hasValue(old);
    }
}
