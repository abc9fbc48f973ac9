package io.msgx.pipeline.request;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.domain.message.FlightRecord;
import io.msgx.domain.message.ScheduleKind;
import io.msgx.domain.message.ScheduleMessage;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.codec.MessageMeta;
import io.msgx.pipeline.codec.ReferenceAnswer;
import io.msgx.pipeline.codec.ReferenceRecord;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.MatchMode;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.record.Request;
import io.msgx.pipeline.record.RequestStatus;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Schedule answers (SCHD/RESP) are applied only when they answer an open request of ours (G-RESP-GUARD); reference
 * answers are always applied and close the reference request they answer. Every path from sending the request
 * to the answer's end, through the whole pipeline; a mailbox and store pair's test class extends this (the
 * in-memory mailbox and the H2 test store in pipeline-tests, MariaDB and PostgreSQL in the runner's tests).
 */
public abstract class ResponseFlowContract {

    private static final LocalDate DAY = LocalDate.of(2024, 3, 11);

    protected final SettableClock clock = SettableClock.atExampleDay();          // 08:00 in Shanghai
    private Mailbox mailbox;
    private PipelineStore store;
    private PipelineHarness pipeline;
    private RequestSender sender;
    private long answerSeqn = 9000;

    /** A fresh, empty mailbox (inbound and outbound tables). */
    protected abstract Mailbox mailbox();

    /** A fresh, empty store, using {@link #clock}. */
    protected abstract PipelineStore store();

    @BeforeEach
    void wirePipeline() {
        mailbox = mailbox();
        store = store();
        pipeline = new PipelineHarness(mailbox, store, clock);
        sender = new RequestSender(mailbox, store, RequestSettings.defaults(), OperationDayRule.defaults(), clock);
    }

    @Test
    void an_answer_echoing_our_seqn_is_applied_and_closes_the_request_as_exact() {
        var request = sender.requestSchedule(DAY);
        long id = answer(request.seqn(), localNow(), fltr("1001", "11MAR240835"));

        assertThat(record(id).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(flight1001()).isPresent();
        var done = request(request);
        assertThat(done.status()).isEqualTo(RequestStatus.DONE);
        assertThat(done.matchMode()).isEqualTo(MatchMode.EXACT);
        assertThat(done.responseMsgId()).isEqualTo(id);
    }

    @Test
    void without_rqsn_the_open_request_for_the_answers_operation_day_is_matched_as_degraded() {
        var request = sender.requestSchedule(DAY);
        long id = answer(null, localNow(), fltr("1001", "11MAR240835"), fltr("1002", "11MAR242300"));
        assertThat(record(id).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(request(request).matchMode()).isEqualTo(MatchMode.DEGRADED);
    }

    @Test
    void without_rqsn_a_request_open_at_the_end_is_matched_by_the_records_after_its_start() {
        var request = sender.requestSchedule(ScheduleWindow.startingAt(DAY.atTime(6, 0)));
        long before = answer(null, localNow(), fltr("1001", "11MAR240535"), fltr("1002", "12MAR240900"));
        assertThat(record(before).status()).isEqualTo(ProcStatus.SKIPPED);
        assertThat(record(before).lastError()).startsWith("no-match:no RQSN, and no open schedule request covers");
        assertThat(flight1001()).isEmpty();

        long id = answer(null, localNow(), fltr("1001", "11MAR240835"), fltr("1002", "13MAR242300"));

        assertThat(record(id).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(request(request).matchMode()).isEqualTo(MatchMode.DEGRADED);
        assertThat(request(request).responseMsgId()).isEqualTo(id);
    }

    @Test
    void without_rqsn_a_request_open_at_the_start_is_matched_by_the_records_up_to_its_end() {
        var request = sender.requestSchedule(ScheduleWindow.endingAt(DAY.atTime(23, 59)));
        long after = answer(null, localNow(), fltr("1001", "12MAR240005"));
        assertThat(record(after).status()).isEqualTo(ProcStatus.SKIPPED);

        long id = answer(null, localNow(), fltr("1001", "10MAR240835"), fltr("1002", "11MAR242359"));

        assertThat(record(id).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(request(request).matchMode()).isEqualTo(MatchMode.DEGRADED);
    }

    @Test
    void an_answer_to_nothing_we_asked_is_skipped_and_applies_nothing() {
        long id = answer("424242", localNow(), fltr("1001", "11MAR240835"));
        assertThat(record(id).status()).isEqualTo(ProcStatus.SKIPPED);
        assertThat(record(id).lastError()).isEqualTo("no-match:no schedule request with SEQN 424242");
        assertThat(flight1001()).isEmpty();
        assertThat(store.scheduleLog().entriesOf(id)).singleElement()
                .satisfies(e -> assertThat(e.outcome()).isEqualTo("UNMATCHED"));
    }

    @Test
    void an_answer_to_an_expired_request_is_skipped() {
        var old = sender.requestSchedule(DAY);
        clock.tick(Duration.ofMinutes(1));
        sender.requestSchedule(DAY);
        long id = answer(old.seqn(), localNow(), fltr("1001", "11MAR240835"));
        assertThat(record(id).lastError()).contains("is EXPIRED (closed)");
        assertThat(flight1001()).isEmpty();
    }

    @Test
    void an_answer_after_the_request_timed_out_is_skipped_and_the_request_stays_expired() {
        var request = sender.requestSchedule(DAY);
        clock.tick(Duration.ofMinutes(31));
        assertThat(new RequestExpiry(store, Duration.ofMinutes(30), clock).runOnce()).isEqualTo(1);
        var expired = request(request);

        long id = answer(request.seqn(), localNow(), fltr("1001", "11MAR240835"));

        assertThat(record(id).status()).isEqualTo(ProcStatus.SKIPPED);
        assertThat(record(id).lastError()).contains("is EXPIRED (closed)");
        assertThat(flight1001()).isEmpty();
        assertThat(request(request)).isEqualTo(expired);
    }

    @Test
    void an_answer_whose_request_expires_between_the_match_and_the_commit_is_skipped_and_applies_nothing() {
        var request = sender.requestSchedule(DAY);
        pipeline = new PipelineHarness(mailbox, expiringAtTheLastMoment(store), clock);

        long id = answer(request.seqn(), localNow(), fltr("1001", "11MAR240835"));

        assertThat(record(id).status()).isEqualTo(ProcStatus.SKIPPED);
        assertThat(record(id).lastError()).isEqualTo("no-match:request " + request.id()
                + " was closed while its answer was processed");
        assertThat(flight1001()).as("nothing applied to a closed request").isEmpty();
        assertThat(request(request).status()).isEqualTo(RequestStatus.EXPIRED);
    }

    @Test
    void an_exact_answer_to_a_request_whose_confirmation_was_lost_confirms_and_closes_it() {
        var request = store.requests().register(io.msgx.pipeline.record.RequestKind.SCHEDULE, null, DAY, "RMS", "77001",
                clock.instant(), clock.instant().plus(Duration.ofDays(1)), clock.instant());
        long written = mailbox.appendOutbound(new io.msgx.pipeline.mailbox.OutboundMessage(
                "<MSG><META><SEQN>77001</SEQN></META></MSG>", "AODB", clock.instant()));

        long id = answer("77001", localNow(), fltr("1001", "11MAR240835"));

        assertThat(record(id).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(request(request).status()).isEqualTo(RequestStatus.DONE);
        assertThat(request(request).outMsgId()).isEqualTo(written);
        assertThat(flight1001()).isPresent();
    }

    // Our SEQNs cycle (D-111): a number comes round again once its request is closed.

    /** A sender whose SEQN has two digits (01..99), and the end of its cycle reached by a closed request of 99. */
    private RequestSender twoDigitSenderAtTheEndOfItsCycle(Mailbox box) {
        var settings = new RequestSettings("RMS", "AODB", new SeqnCycle(2));
        var last = store.requests().register(io.msgx.pipeline.record.RequestKind.REFERENCE, "ABDG", null, "RMS", "99",
                null, null, clock.instant());
        store.requests().expireOpenBefore(clock.instant().plusSeconds(1), clock.instant());
        assertThat(request(last).status()).isEqualTo(RequestStatus.EXPIRED);
        return new RequestSender(box, store, settings, OperationDayRule.defaults(), clock);
    }

    @Test
    void across_the_wrap_an_answer_names_the_open_request_never_an_older_closed_one_with_its_number() {
        var sender = new RequestSender(mailbox, store, new RequestSettings("RMS", "AODB", new SeqnCycle(2)),
                OperationDayRule.defaults(), clock);
        var first = sender.requestSchedule(DAY);
        assertThat(first.seqn()).isEqualTo("01");
        var firstAnsweredAt = localNow();
        long firstAnswer = answer("01", firstAnsweredAt, fltr("1001", "11MAR240835"));
        assertThat(request(first).status()).isEqualTo(RequestStatus.DONE);
        clock.tick(Duration.ofMinutes(10)); // beyond the clock-skew tolerance
        var open = twoDigitSenderAtTheEndOfItsCycle(mailbox).requestReference("GLST"); // 01 is closed: taken again
        clock.tick(Duration.ofMinutes(1));
        var next = sender.requestSchedule(DAY.plusDays(1));

        assertThat(open.seqn()).isEqualTo("01");
        assertThat(next.seqn()).as("after 01 comes 02").isEqualTo("02");

        long late = referenceAnswer("GLST", "01", firstAnsweredAt, "G28"); // the first request's number, its time
        assertThat(record(late).lastError()).contains("before request " + open.id() + " was sent");
        assertThat(request(open).status()).isEqualTo(RequestStatus.SENT);
        long lateSchedule = answer("01", localNow(), fltr("1002", "11MAR240900"));
        assertThat(record(lateSchedule).lastError()).isEqualTo("no-match:no schedule request with SEQN 01");
        assertThat(request(first).responseMsgId()).as("the closed request never changes").isEqualTo(firstAnswer);

        long exact = referenceAnswer("GLST", "01", localNow(), "G29");
        assertThat(record(exact).lastError()).endsWith("answers request " + open.id() + " (EXACT)");
        assertThat(request(open).status()).isEqualTo(RequestStatus.DONE);
    }

    @Test
    void a_request_that_carries_a_number_again_is_never_confirmed_by_the_older_row_of_that_number() {
        var sender = twoDigitSenderAtTheEndOfItsCycle(mailbox);
        var first = sender.requestReference("GLST");
        long firstRow = first.outMsgId();
        store.requests().expireOpenBefore(clock.instant().plusSeconds(1), clock.instant());
        clock.tick(Duration.ofMinutes(1));
        twoDigitSenderAtTheEndOfItsCycle(mailbox);
        clock.tick(Duration.ofMinutes(1));

        var unwritten = twoDigitSenderAtTheEndOfItsCycle(refusingWrites(mailbox)).requestReference("SLST");
        assertThat(unwritten.seqn()).isEqualTo(first.seqn());
        assertThat(unwritten.status()).isEqualTo(RequestStatus.PENDING);
        assertThat(RequestSender.findWritten(mailbox, unwritten)).as("the older row is not this request's").isEmpty();

        long answer = referenceAnswer("SLST", unwritten.seqn(), localNow(), "S1");
        assertThat(record(answer).lastError()).contains("never confirmed sent, and not found in the mailbox");
        assertThat(request(unwritten).status()).isEqualTo(RequestStatus.PENDING);

        var settled = sender.confirmPending();
        assertThat(settled).singleElement().satisfies(r -> {
            assertThat(r.status()).isEqualTo(RequestStatus.SENT);
            assertThat(r.outMsgId()).as("written now, not confirmed by the older row").isNotEqualTo(firstRow);
        });
    }

    /** {@code box}, whose outbound writes fail as a mailbox that is away. */
    private static Mailbox refusingWrites(Mailbox box) {
        return (Mailbox) java.lang.reflect.Proxy.newProxyInstance(ResponseFlowContract.class.getClassLoader(),
                new Class<?>[]{Mailbox.class}, (proxy, method, args) -> {
                    if (method.getName().equals("appendOutbound")) {
                        throw new io.msgx.pipeline.mailbox.MailboxUnavailableException("the mailbox is away", null);
                    }
                    return invoke(method, box, args);
                });
    }

    /**
     * {@code store}, whose transactions see the expiry job close every open request just before an answer closes
     * its own: the race the conditional {@code complete} decides.
     */
    private static PipelineStore expiringAtTheLastMoment(PipelineStore store) {
        java.util.function.UnaryOperator<io.msgx.pipeline.port.PipelineTransaction> racing = tx ->
                (io.msgx.pipeline.port.PipelineTransaction) java.lang.reflect.Proxy.newProxyInstance(
                        ResponseFlowContract.class.getClassLoader(),
                        new Class<?>[]{io.msgx.pipeline.port.PipelineTransaction.class}, (proxy, method, args) -> {
                            if (method.getName().equals("requests")) {
                                return expiringFirst(tx.requests());
                            }
                            return invoke(method, tx, args);
                        });
        return (PipelineStore) java.lang.reflect.Proxy.newProxyInstance(ResponseFlowContract.class.getClassLoader(),
                new Class<?>[]{PipelineStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("inTransaction") || method.getName().equals("inLockedTransaction")) {
                        var work = (PipelineStore.TransactionWork<?>) args[0];
                        PipelineStore.TransactionWork<Object> wrapped = tx -> work.run(racing.apply(tx));
                        return invoke(method, store, new Object[]{wrapped});
                    }
                    return invoke(method, store, args);
                });
    }

    private static io.msgx.pipeline.port.RequestTrack expiringFirst(io.msgx.pipeline.port.RequestTrack requests) {
        return (io.msgx.pipeline.port.RequestTrack) java.lang.reflect.Proxy.newProxyInstance(
                ResponseFlowContract.class.getClassLoader(), new Class<?>[]{io.msgx.pipeline.port.RequestTrack.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("complete")) {
                        var at = (java.time.Instant) args[3];
                        requests.expireOpenBefore(at.plus(Duration.ofDays(1)), at);
                    }
                    return invoke(method, requests, args);
                });
    }

    private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Test
    void an_answer_sent_before_our_request_beyond_the_tolerance_is_skipped() {
        var request = sender.requestSchedule(DAY);
        long tooEarly = answer(request.seqn(), localNow().minusMinutes(3), fltr("1001", "11MAR240835"));
        assertThat(record(tooEarly).lastError()).contains("before request " + request.id() + " was sent");
        long withinSkew = answer(request.seqn(), localNow().minusMinutes(1), fltr("1001", "11MAR240835"));
        assertThat(record(withinSkew).status()).isEqualTo(ProcStatus.SUCCEEDED);
    }

    @Test
    void a_late_answer_never_changes_a_closed_request() {
        var request = sender.requestSchedule(DAY);
        long first = answer(request.seqn(), localNow(), fltr("1001", "11MAR240835"));
        var closed = request(request);
        clock.tick(Duration.ofMinutes(5));
        long late = answer(request.seqn(), localNow(), fltr("1001", "11MAR240835", "STND", "9"));

        assertThat(record(late).status()).isEqualTo(ProcStatus.SKIPPED);
        assertThat(request(request)).isEqualTo(closed);
        assertThat(request(request).responseMsgId()).isEqualTo(first);
        assertThat(flight1001().orElseThrow().stateVersion()).isEqualTo(1);
    }

    @Test
    void a_rejected_answer_leaves_the_request_open() {
        var request = sender.requestSchedule(DAY);
        long id = answer(request.seqn(), localNow(), fltr("1001", "11MAR240835"), fltr("1001", "12MAR240835"));
        assertThat(record(id).errorClass()).isEqualTo(ErrorClass.PROTOCOL);
        assertThat(request(request).status()).isEqualTo(RequestStatus.SENT);
    }

    // Reference answers: always applied (D-33); they close the reference request they answer.

    @Test
    void a_reference_answer_echoing_our_seqn_closes_the_request_as_exact() {
        var request = sender.requestReference("GLST");
        long id = referenceAnswer("GLST", request.seqn(), localNow(), "G28");

        assertThat(record(id).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(record(id).lastError()).isEqualTo("reference: 1 record(s) of GLST; answers request "
                + request.id() + " (EXACT)");
        assertThat(store.referenceData().find("GLST", "G28")).isPresent();
        var done = request(request);
        assertThat(done.status()).isEqualTo(RequestStatus.DONE);
        assertThat(done.matchMode()).isEqualTo(MatchMode.EXACT);
        assertThat(done.responseMsgId()).isEqualTo(id);
    }

    @Test
    void a_reference_answer_without_rqsn_closes_the_open_request_of_its_type_as_degraded() {
        var stands = sender.requestReference("SLST");
        var gates = sender.requestReference("GLST");
        long id = referenceAnswer("GLST", null, localNow(), "G28");

        assertThat(request(gates).matchMode()).isEqualTo(MatchMode.DEGRADED);
        assertThat(request(gates).responseMsgId()).isEqualTo(id);
        assertThat(request(stands).status()).as("another type's request is not answered").isEqualTo(RequestStatus.SENT);
    }

    @Test
    void a_late_reference_answer_is_applied_but_never_changes_the_closed_request() {
        var request = sender.requestReference("GLST");
        long first = referenceAnswer("GLST", request.seqn(), localNow(), "G28");
        var closed = request(request);
        clock.tick(Duration.ofMinutes(5));
        long late = referenceAnswer("GLST", request.seqn(), localNow(), "G29");

        assertThat(record(late).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(record(late).lastError()).contains("no request: request " + request.id() + " is DONE (closed)");
        assertThat(store.referenceData().find("GLST", "G29")).as("reference data only gets fresher").isPresent();
        assertThat(request(request)).isEqualTo(closed);
        assertThat(closed.responseMsgId()).isEqualTo(first);
    }

    @Test
    void a_reference_answer_echoing_another_types_request_does_not_close_it() {
        var request = sender.requestReference("SLST");
        long id = referenceAnswer("GLST", request.seqn(), localNow(), "G28");
        assertThat(record(id).lastError()).endsWith("no request: no GLST reference request with SEQN " + request.seqn());
        assertThat(request(request).status()).isEqualTo(RequestStatus.SENT);
    }

    @Test
    void a_reference_answer_sent_before_our_request_does_not_close_it() {
        var request = sender.requestReference("GLST");
        long id = referenceAnswer("GLST", request.seqn(), localNow().minusMinutes(10), "G28");
        assertThat(record(id).lastError()).contains("before request " + request.id() + " was sent");
        assertThat(request(request).status()).isEqualTo(RequestStatus.SENT);
    }

    /**
     * D-115: {@code REGN} (registrations) is ignored by the baseline ({@code REGN-*}) and not a reference type by
     * default. Configured as one, it can be requested, and the answer to our request is applied and closes it, while the
     * baseline still ignores its broadcasts.
     */
    @Test
    void regn_configured_as_a_reference_type_is_requested_and_its_answer_applied_while_its_broadcasts_stay_ignored() {
        var types = new java.util.HashSet<>(io.msgx.pipeline.codec.MsgKind.DEFAULT_REFERENCE_TYPES);
        types.add("REGN");
        pipeline = new PipelineHarness(mailbox, store, clock,
                new JacksonXmlCodec(io.msgx.pipeline.codec.CodecLimits.DEFAULTS, types));
        var request = sender.requestReference("REGN");
        assertThat(request.status()).isEqualTo(RequestStatus.SENT);

        long broadcast = referenceMessage("REGN", io.msgx.pipeline.codec.ReferenceAction.DNLD, null, localNow(),
                "B-1234");
        assertThat(record(broadcast).status()).isEqualTo(ProcStatus.SKIPPED);
        assertThat(record(broadcast).lastError()).isEqualTo("ignored:REGN-*");

        long answer = referenceAnswer("REGN", request.seqn(), localNow(), "B-5678");

        assertThat(record(answer).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(record(answer).lastError()).endsWith("answers request " + request.id() + " (EXACT)");
        assertThat(store.referenceData().find("REGN", "B-5678")).isPresent();
        assertThat(store.referenceData().find("REGN", "B-1234")).isEmpty();
        assertThat(request(request).status()).isEqualTo(RequestStatus.DONE);
    }

    @Test
    void regn_not_configured_as_a_reference_type_stays_ignored_answer_included() {
        var request = sender.requestReference("REGN");

        long answer = referenceAnswer("REGN", request.seqn(), localNow(), "B-5678");

        assertThat(record(answer).status()).isEqualTo(ProcStatus.SKIPPED);
        assertThat(record(answer).lastError()).isEqualTo("ignored:REGN-*");
        assertThat(request(request).status()).as("left to expire").isEqualTo(RequestStatus.SENT);
    }

    private long referenceAnswer(String type, String rqsn, LocalDateTime sentAt, String... keys) {
        return referenceMessage(type, io.msgx.pipeline.codec.ReferenceAction.RESP, rqsn, sentAt, keys);
    }

    /** A reference message in the real form: records directly under MSG, with RECS. */
    private long referenceMessage(String type, io.msgx.pipeline.codec.ReferenceAction action, String rqsn,
                                  LocalDateTime sentAt, String... keys) {
        var meta = new MessageMeta("AODB", "RMS", type, action.name(), Long.toString(answerSeqn++), sentAt, rqsn);
        var records = java.util.Arrays.stream(keys)
                .map(key -> new ReferenceRecord(key, java.util.Map.of("CODE", key))).toList();
        long id = mailbox.appendInbound(new JacksonXmlCodec().encode(meta,
                        new ReferenceAnswer(type, action, records.size(), records)), clock.instant());
        pipeline.runUntilQuiet();
        return id;
    }

    @Test
    void only_a_resp_answers_a_reference_request_an_update_echoing_its_seqn_leaves_it_open() {
        var request = sender.requestReference("GLST");
        long update = referenceMessage("GLST", io.msgx.pipeline.codec.ReferenceAction.UPD, request.seqn(), localNow(),
                "G28");

        assertThat(record(update).lastError()).isEqualTo("reference: 1 record(s) of GLST (UPD)");
        assertThat(request(request).status()).isEqualTo(RequestStatus.SENT);
        long answer = referenceAnswer("GLST", request.seqn(), localNow(), "G28");
        assertThat(record(answer).lastError()).endsWith("answers request " + request.id() + " (EXACT)");
        assertThat(request(request).status()).isEqualTo(RequestStatus.DONE);
    }

    private long answer(String rqsn, LocalDateTime sentAt, FlightRecord... records) {
        var meta = new MessageMeta("AODB", "RMS", "SCHD", "RESP", Long.toString(answerSeqn++), sentAt, rqsn);
        var xml = new JacksonXmlCodec().encode(meta, new ScheduleMessage(ScheduleKind.RESP, records.length, List.of(records)));
        long id = mailbox.appendInbound(xml, clock.instant());
        pipeline.runUntilQuiet();
        return id;
    }

    private java.util.Optional<FlightState> flight1001() {
        return store.inTransaction(tx -> tx.flights().find(List.of(FlightId.of("1001")))).stream().findFirst();
    }

    private LocalDateTime localNow() {
        return LocalDateTime.ofInstant(clock.instant(), OperationDayRule.DEFAULT_ZONE);
    }

    private ProcRecord record(long id) {
        return store.queue().find(id).orElseThrow();
    }

    private Request request(Request request) {
        return store.requests().find(request.id()).orElseThrow();
    }
}
