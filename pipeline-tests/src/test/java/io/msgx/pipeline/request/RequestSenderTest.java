package io.msgx.pipeline.request;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.mailbox.MailboxUnavailableException;
import io.msgx.pipeline.mailbox.OutboundMessage;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.record.RequestKind;
import io.msgx.pipeline.record.RequestStatus;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.time.LocalDate;

import static org.assertj.core.api.Assertions.assertThat;

class RequestSenderTest {

    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final H2TestStore store = H2TestStore.fresh();
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
    void our_seqn_is_six_digits_by_default_and_continues_from_the_store_after_a_restart() {
        var first = sender.requestSchedule(LocalDate.of(2024, 3, 12));
        var second = sender.requestReference("GLST");
        var afterRestart = sender(mailbox).requestReference("SLST"); // a new process: no counter of its own

        assertThat(first.seqn()).isEqualTo("000001");
        assertThat(second.seqn()).isEqualTo("000002");
        assertThat(afterRestart.seqn()).isEqualTo("000003");
        assertThat(mailbox.outbound().get(2).message().xml()).contains("<SEQN>000003</SEQN>");
    }

    @Test
    void the_width_is_configuration_and_the_cycle_skips_the_numbers_of_open_requests() {
        var twoDigits = new RequestSender(mailbox, store, new RequestSettings("RMS", "AODB", new SeqnCycle(2)),
                OperationDayRule.defaults(), clock);
        var open = twoDigits.requestReference("GLST");
        store.requests().register(RequestKind.REFERENCE, "ABDG", null, "RMS", "98", null, null, clock.instant());
        store.requests().register(RequestKind.REFERENCE, "ABDG", null, "RMS", "99", null, null, clock.instant());

        var wrapped = twoDigits.requestReference("SLST");

        assertThat(open.seqn()).isEqualTo("01");
        assertThat(wrapped.seqn()).as("after 99 comes 01, open: 02").isEqualTo("02");
    }

    @Test
    void an_rqsn_echoed_without_its_leading_zeros_names_our_request() {
        var request = sender.requestReference("GLST");
        var answer = new io.msgx.pipeline.codec.MessageMeta("AODB", null, "GLST", "RESP", "900",
                java.time.LocalDateTime.of(2024, 3, 11, 9, 0), "1");

        var match = new ResponseMatcher(OperationDayRule.defaults(), java.time.Duration.ofMinutes(5), mailbox,
                SeqnCycle.defaults()).matchReference(store.requests(), answer, "GLST");

        assertThat(request.seqn()).isEqualTo("000001");
        assertThat(match).isInstanceOfSatisfying(ResponseMatch.Matched.class, matched ->
                assertThat(matched.request().id()).isEqualTo(request.id()));
    }

    @Test
    void each_kind_of_request_is_written_with_its_own_routing_id() {
        var routed = new RequestSender(mailbox, store, new RequestSettings("RMS", "SIS-FLT", "SIS-REF",
                SeqnCycle.defaults(), ""), OperationDayRule.defaults(), clock);
        routed.requestSchedule(LocalDate.of(2024, 3, 12));
        routed.requestReference("GLST");

        assertThat(mailbox.outbound()).extracting(row -> row.message().routingId()).containsExactly("SIS-FLT", "SIS-REF");
    }

    @Test
    void a_request_settled_by_the_confirmation_round_keeps_the_routing_id_of_its_kind() {
        var routed = new RequestSender(mailbox, store, new RequestSettings("RMS", "SIS-FLT", "SIS-REF",
                SeqnCycle.defaults(), ""), OperationDayRule.defaults(), clock);
        mailbox.setUnavailable(true);
        routed.requestSchedule(LocalDate.of(2024, 3, 12));
        routed.requestReference("GLST");
        mailbox.setUnavailable(false);

        routed.confirmPending();

        assertThat(mailbox.outbound()).extracting(row -> row.message().routingId()).containsExactly("SIS-FLT", "SIS-REF");
    }

    @Test
    void a_request_is_a_complete_document_the_xml_declaration_then_msg_without_xsi_attributes_by_default() throws Exception {
        sender.requestSchedule(LocalDate.of(2024, 3, 12));
        var xml = mailbox.outbound().get(0).message().xml();

        assertThat(xml).startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?><MSG><META><SNDR>RMS</SNDR>")
                .doesNotContain("xsi");
        var document = parse(xml);
        assertThat(document.getXmlVersion()).isEqualTo("1.0");
        assertThat(document.getXmlEncoding()).isEqualTo("UTF-8");
        assertThat(document.getDocumentElement().getTagName()).isEqualTo("MSG");
        assertThat(document.getDocumentElement().getAttributes().getLength()).isZero();
    }

    @Test
    void the_xsi_schema_location_is_written_on_msg_when_configured() throws Exception {
        var withSchema = new RequestSender(mailbox, store, new RequestSettings("RMS", "AODB", "AODB",
                SeqnCycle.defaults(), "SIS.xsd"), OperationDayRule.defaults(), clock);
        withSchema.requestReference("GLST");
        var xml = mailbox.outbound().get(0).message().xml();

        assertThat(xml).startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?><MSG xmlns:xsi=");
        var msg = parse(xml).getDocumentElement();
        assertThat(msg.getAttributeNS("http://www.w3.org/2001/XMLSchema-instance", "noNamespaceSchemaLocation"))
                .isEqualTo("SIS.xsd");
        assertThat(msg.getElementsByTagName("RTYP").item(0).getTextContent()).isEqualTo("GLST");
    }

    @Test
    void a_schema_location_that_cannot_be_an_attribute_value_is_refused_naming_the_key() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new RequestSettings("RMS", "AODB", "AODB",
                        SeqnCycle.defaults(), "a\"b.xsd")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("msgx.requests.schema-location");
        assertThat(new RequestSettings("RMS", "AODB", "AODB", SeqnCycle.defaults(), null).writesSchemaLocation())
                .isFalse();
    }

    private static org.w3c.dom.Document parse(String xml) throws Exception {
        var factory = javax.xml.parsers.DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder().parse(new java.io.ByteArrayInputStream(
                xml.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    @Test
    void a_schedule_request_may_carry_only_stdb_or_only_stde() {
        var fromOnly = sender.requestSchedule(ScheduleWindow.startingAt(java.time.LocalDateTime.of(2024, 3, 12, 6, 0)));
        var toOnly = sender.requestSchedule(ScheduleWindow.endingAt(java.time.LocalDateTime.of(2024, 3, 14, 23, 59)));

        assertThat(mailbox.outbound().get(0).message().xml()).contains("<RQFD><STDB>12MAR240600</STDB></RQFD>")
                .doesNotContain("STDE");
        assertThat(mailbox.outbound().get(1).message().xml()).contains("<RQFD><STDE>14MAR242359</STDE></RQFD>")
                .doesNotContain("STDB");
        assertThat(store.requests().find(fromOnly.id()).orElseThrow()).satisfies(r -> {
            assertThat(r.windowStart()).isEqualTo(java.time.Instant.parse("2024-03-11T22:00:00Z"));
            assertThat(r.windowEnd()).isNull();
            assertThat(r.coverDay()).as("filed under the day of its start").isEqualTo(LocalDate.of(2024, 3, 12));
            assertThat(r.status()).isEqualTo(RequestStatus.SENT);
        });
        assertThat(store.requests().find(toOnly.id()).orElseThrow()).satisfies(r -> {
            assertThat(r.windowStart()).isNull();
            assertThat(r.coverDay()).as("filed under the day of its end").isEqualTo(LocalDate.of(2024, 3, 14));
        });
    }

    @Test
    void asking_for_another_window_of_a_day_whose_request_is_unconfirmed_is_a_new_request() {
        var day = LocalDate.of(2024, 3, 12);
        var first = sender(losesTheAnswerOf(mailbox)).requestSchedule(day);
        clock.tick(java.time.Duration.ofMinutes(1));

        var openEnded = sender.requestSchedule(ScheduleWindow.startingAt(day.atTime(12, 0)));

        assertThat(openEnded.id()).isNotEqualTo(first.id());
        assertThat(mailbox.outbound()).hasSize(2);
        assertThat(store.requests().find(first.id()).orElseThrow().status()).as("the newer request of the day expires it")
                .isEqualTo(RequestStatus.EXPIRED);
    }

    @Test
    void a_window_needs_one_end_at_least_and_must_not_end_before_it_starts() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ScheduleWindow(null, null))
                .hasMessageContaining("STDB");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ScheduleWindow(
                java.time.LocalDateTime.of(2024, 3, 12, 6, 0), java.time.LocalDateTime.of(2024, 3, 12, 5, 0)))
                .hasMessageContaining("before it starts");
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

        var settled = sender.confirmPending();

        assertThat(settled).singleElement().satisfies(r -> assertThat(r.status()).isEqualTo(RequestStatus.SENT));
        assertThat(mailbox.outbound()).hasSize(1);
    }

    /**
     * Issue 33: the confirmation job's round falls between the registration of a request and its write to the mailbox.
     * Both saw it PENDING with nothing in COUTMSGS, both wrote it: the AODB got two requests with one SEQN. The round
     * now waits for the write and finds the request sent.
     */
    @Test
    void a_confirmation_round_during_the_write_of_a_request_never_writes_it_a_second_time() throws Exception {
        var round = new java.util.concurrent.CompletableFuture<java.util.List<io.msgx.pipeline.record.Request>>();
        var roundDuringTheWrite = (Mailbox) Proxy.newProxyInstance(Mailbox.class.getClassLoader(),
                new Class<?>[] {Mailbox.class}, (self, method, args) -> {
                    if (method.getName().equals("appendOutbound") && !round.isDone()) {
                        var job = new Thread(() -> round.complete(sender.confirmPending()));
                        job.start();
                        job.join(500); // long enough for a round that does not wait to write the request itself
                    }
                    return method.invoke(mailbox, args);
                });

        var request = sender(roundDuringTheWrite).requestSchedule(LocalDate.of(2024, 3, 12));

        assertThat(round.get(10, java.util.concurrent.TimeUnit.SECONDS)).as("the round found nothing left PENDING")
                .isEmpty();
        assertThat(request.status()).isEqualTo(RequestStatus.SENT);
        assertThat(mailbox.outbound()).as("one request with SEQN " + request.seqn() + " in COUTMSGS").hasSize(1);
    }

    @Test
    void a_write_whose_confirmation_was_lost_is_found_again_and_never_resent() {
        var request = sender(losesTheAnswerOf(mailbox)).requestSchedule(LocalDate.of(2024, 3, 12));
        assertThat(request.status()).isEqualTo(RequestStatus.PENDING);
        assertThat(mailbox.outbound()).as("the insert itself happened").hasSize(1);

        var settled = sender.confirmPending().get(0);

        assertThat(settled.status()).isEqualTo(RequestStatus.SENT);
        assertThat(settled.outMsgId()).isEqualTo(mailbox.outbound().get(0).id());
        assertThat(mailbox.outbound()).as("not written a second time").hasSize(1);
    }

    @Test
    void asking_again_while_a_written_request_is_unconfirmed_settles_it_and_writes_no_second_one() {
        var day = LocalDate.of(2024, 3, 12);
        var first = sender(losesTheAnswerOf(mailbox)).requestSchedule(day);
        assertThat(first.status()).isEqualTo(RequestStatus.PENDING);
        clock.tick(java.time.Duration.ofMinutes(1));

        var again = sender.requestSchedule(day); // the daily job's next run, a minute later

        assertThat(again.id()).as("the same request, confirmed").isEqualTo(first.id());
        assertThat(again.status()).isEqualTo(RequestStatus.SENT);
        assertThat(mailbox.outbound()).as("one request in COUTMSGS").hasSize(1);
        assertThat(store.requests().pending()).isEmpty();
    }

    /** D-138: an operator's request is recorded in the transaction that registers it, or that confirms the one settled. */
    @Test
    void an_operators_request_is_recorded_with_its_registration_and_a_settled_one_with_its_confirmation() {
        var ops = io.msgx.pipeline.audit.Actor.cli("ops", "cli@host (os user ops)");
        var day = LocalDate.of(2024, 3, 12);
        var first = sender(losesTheAnswerOf(mailbox)).requestSchedule(day, new io.msgx.pipeline.audit.AuditedAction(
                store, clock, ops, io.msgx.pipeline.audit.AuditAction.REQUEST_SCHEDULE, "day " + day));
        clock.tick(java.time.Duration.ofMinutes(1));
        var again = sender.requestSchedule(day, new io.msgx.pipeline.audit.AuditedAction(store, clock, ops,
                io.msgx.pipeline.audit.AuditAction.REQUEST_SCHEDULE, "day " + day));

        var rows = store.operatorAudit().newestFirst(io.msgx.pipeline.port.OperatorAudit.Filter.newest(10));
        assertThat(rows).extracting(row -> row.entry().result().changed()).containsExactly(
                "request " + first.id() + " SEQN " + first.seqn() + " SENT as COUTMSGS " + again.outMsgId(),
                "request " + first.id() + " SEQN " + first.seqn() + " registered");
        assertThat(rows).allSatisfy(row -> {
            assertThat(row.entry().outcome()).isEqualTo(io.msgx.pipeline.audit.AuditOutcome.DONE);
            assertThat(row.entry().items()).isEqualTo("day 2024-03-12");
        });
        assertThat(rows.get(0).entry().result().detail()).contains("settled instead of asking a second time");
    }

    @Test
    void an_exact_answer_to_a_request_whose_confirmation_was_lost_is_matched_once_its_row_is_found() {
        var request = sender(losesTheAnswerOf(mailbox)).requestReference("GLST");
        assertThat(request.status()).isEqualTo(RequestStatus.PENDING);
        var answer = new io.msgx.pipeline.codec.MessageMeta("AODB", null, "GLST", "RESP", "900",
                java.time.LocalDateTime.of(2024, 3, 11, 9, 0), request.seqn());

        var withoutMailbox = new ResponseMatcher(OperationDayRule.defaults(), java.time.Duration.ofMinutes(5))
                .matchReference(store.requests(), answer, "GLST");
        var withMailbox = new ResponseMatcher(OperationDayRule.defaults(), java.time.Duration.ofMinutes(5), mailbox)
                .matchReference(store.requests(), answer, "GLST");

        assertThat(withoutMailbox).isInstanceOf(ResponseMatch.Unmatched.class);
        assertThat(withMailbox).isInstanceOfSatisfying(ResponseMatch.Matched.class, matched -> {
            assertThat(matched.request().id()).isEqualTo(request.id());
            assertThat(matched.request().status()).isEqualTo(RequestStatus.SENT);
            assertThat(matched.request().outMsgId()).isEqualTo(mailbox.outbound().get(0).id());
        });
    }

    @Test
    void a_request_never_written_is_not_matched_by_an_answer_naming_it() {
        mailbox.setUnavailable(true);
        var request = sender.requestReference("GLST");
        mailbox.setUnavailable(false);
        var answer = new io.msgx.pipeline.codec.MessageMeta("AODB", null, "GLST", "RESP", "900",
                java.time.LocalDateTime.of(2024, 3, 11, 9, 0), request.seqn());

        var match = new ResponseMatcher(OperationDayRule.defaults(), java.time.Duration.ofMinutes(5), mailbox)
                .matchReference(store.requests(), answer, "GLST");

        assertThat(match).isInstanceOfSatisfying(ResponseMatch.Unmatched.class, unmatched ->
                assertThat(unmatched.reason()).contains("not found in the mailbox"));
        assertThat(store.requests().find(request.id()).orElseThrow().status()).isEqualTo(RequestStatus.PENDING);
    }

    /** A mailbox that writes the outbound row and then loses the answer, as a dropped connection does. */
    private static Mailbox losesTheAnswerOf(Mailbox mailbox) {
        return (Mailbox) Proxy.newProxyInstance(RequestSenderTest.class.getClassLoader(), new Class<?>[]{Mailbox.class},
                (proxy, method, args) -> {
                    var result = method.invoke(mailbox, args);
                    if (method.getName().equals("appendOutbound")) {
                        throw new MailboxUnavailableException("connection lost after the insert", null);
                    }
                    return result;
                });
    }

    @Test
    void the_outbound_lookup_finds_only_rows_written_since_the_request() {
        long old = mailbox.appendOutbound(new OutboundMessage("<SEQN>5</SEQN>", "AODB", clock.instant().minusSeconds(60)));
        assertThat(mailbox.findOutbound("<SEQN>5</SEQN>", clock.instant())).isEmpty();
        assertThat(mailbox.findOutbound("<SEQN>5</SEQN>", clock.instant().minusSeconds(60))).hasValue(old);
    }
}
