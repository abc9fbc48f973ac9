package io.msgx.pipeline.request;

import io.msgx.domain.flight.OperationDayRule;
import io.msgx.domain.message.FlightRecord;
import io.msgx.domain.message.ScheduleKind;
import io.msgx.domain.message.ScheduleMessage;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.codec.MessageMeta;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.store.ErrorClass;
import io.msgx.pipeline.store.InMemoryPipelineStore;
import io.msgx.pipeline.store.MatchMode;
import io.msgx.pipeline.store.ProcRecord;
import io.msgx.pipeline.store.ProcStatus;
import io.msgx.pipeline.store.Request;
import io.msgx.pipeline.store.RequestStatus;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static org.assertj.core.api.Assertions.assertThat;

/** Schedule answers (SCHD/RESP) are applied only when they answer an open request of ours (G-RESP-GUARD). */
class ResponseFlowTest {

    private static final LocalDate DAY = LocalDate.of(2024, 3, 11);

    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final InMemoryPipelineStore store = new InMemoryPipelineStore();
    private final SettableClock clock = SettableClock.atExampleDay();          // 08:00 in Shanghai
    private final PipelineHarness pipeline = new PipelineHarness(mailbox, store, clock);
    private final RequestSender sender = new RequestSender(mailbox, store, RequestSettings.defaults(),
            OperationDayRule.defaults(), clock);
    private long answerSeqn = 9000;

    @Test
    void an_answer_echoing_our_seqn_is_applied_and_closes_the_request_as_exact() {
        var request = sender.requestSchedule(DAY);
        long id = answer(request.seqn(), localNow(), fltr("1001", "11MAR240835"));

        assertThat(record(id).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(store.allFlights()).hasSize(1);
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
    void an_answer_to_nothing_we_asked_is_skipped_and_applies_nothing() {
        long id = answer("424242", localNow(), fltr("1001", "11MAR240835"));
        assertThat(record(id).status()).isEqualTo(ProcStatus.SKIPPED);
        assertThat(record(id).lastError()).isEqualTo("no-match:no schedule request with SEQN 424242");
        assertThat(store.allFlights()).isEmpty();
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
        assertThat(store.allFlights()).isEmpty();
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
        assertThat(store.allFlights().get(0).stateVersion()).isEqualTo(1);
    }

    @Test
    void a_rejected_answer_leaves_the_request_open() {
        var request = sender.requestSchedule(DAY);
        long id = answer(request.seqn(), localNow(), fltr("1001", "11MAR240835"), fltr("1001", "12MAR240835"));
        assertThat(record(id).errorClass()).isEqualTo(ErrorClass.PROTOCOL);
        assertThat(request(request).status()).isEqualTo(RequestStatus.SENT);
    }

    private long answer(String rqsn, LocalDateTime sentAt, FlightRecord... records) {
        var meta = new MessageMeta("AODB", "RMS", "SCHD", "RESP", Long.toString(answerSeqn++), sentAt, rqsn);
        var xml = new JacksonXmlCodec().encode(meta, new ScheduleMessage(ScheduleKind.RESP, records.length, List.of(records)));
        long id = mailbox.appendInbound(xml, clock.instant());
        pipeline.runUntilQuiet();
        return id;
    }

    private LocalDateTime localNow() {
        return LocalDateTime.ofInstant(clock.instant(), OperationDayRule.DEFAULT_ZONE);
    }

    private ProcRecord record(long id) {
        return store.procStates().find(id).orElseThrow();
    }

    private Request request(Request request) {
        return store.requests().find(request.id()).orElseThrow();
    }
}
