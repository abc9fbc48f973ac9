package io.msgx.pipeline.pump;

import io.msgx.pipeline.codec.MessageMeta;
import io.msgx.pipeline.codec.ReferenceAnswer;
import io.msgx.pipeline.request.ResponseMatch;
import io.msgx.pipeline.request.ResponseMatcher;
import io.msgx.pipeline.store.ErrorClass;
import io.msgx.pipeline.store.PipelineStore;
import io.msgx.pipeline.store.PipelineTransaction;
import io.msgx.pipeline.store.ProcRecord;
import io.msgx.pipeline.store.ReferenceData;
import io.msgx.pipeline.store.Terminal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;

/**
 * Applies a reference answer ({@code TYPE=<reference type>}, {@code STYP=RESP}, sis-format §6) to
 * {@code REF_MASTER}.
 *
 * <p>In one transaction holding {@code PIPELINE_LOCK}, as {@link FlightProcessor} does: a message that is no longer
 * open (it ended already) is an idempotent success and nothing is written again; otherwise every record is upserted
 * ({@link ReferenceData#refresh}: records absent from the answer stay) and the message ends
 * {@code SUCCEEDED(reference: N record(s) of TYPE)} in the same transaction. An answer whose type or a key does
 * not fit the table ends {@code DEAD(PROTOCOL)} without writing anything.
 *
 * <p>With a {@link ResponseMatcher}, the reference request ({@code RQRD}) the answer belongs to becomes
 * {@code DONE} in the same transaction, only when the answer was applied. Unlike a schedule answer, a reference
 * answer that matches no open request (unsolicited, late, or after its request expired) is still applied: reference
 * data is master data that only gets fresher, and refusing it would leave {@code REF_MASTER} stale for nothing
 * (decision D-33). The closed request itself is never touched. The message's reason says which request it
 * answered, or why none.
 */
public final class ReferenceProcessor {

    private static final Logger log = LoggerFactory.getLogger(ReferenceProcessor.class);

    private final PipelineStore store;
    private final Clock clock;
    private final ResponseMatcher responses;

    /** A processor that applies reference answers and never closes a request. */
    public ReferenceProcessor(PipelineStore store, Clock clock) {
        this(store, clock, null);
    }

    /** A processor that also closes the reference request an answer belongs to ({@code responses}; null: none). */
    public ReferenceProcessor(PipelineStore store, Clock clock, ResponseMatcher responses) {
        this.store = store;
        this.clock = clock;
        this.responses = responses;
    }

    /** Process the answer and return how the message ended; it is already persisted when this returns. */
    public Terminal apply(ProcRecord head, MessageMeta meta, ReferenceAnswer answer) {
        return store.inLockedTransaction(tx -> refreshAndEnd(tx, head.msgId(), meta, answer));
    }

    private Terminal refreshAndEnd(PipelineTransaction tx, long msgId, MessageMeta meta, ReferenceAnswer answer) {
        var record = tx.procStates().find(msgId).orElseThrow(() -> new IllegalStateException(
                "message " + msgId + " has no PROC_STATE row; it must be enqueued before it is processed"));
        if (!record.status().isOpen()) {
            log.info("Message {} already ended {} ({}); reference data not written again", msgId, record.status(),
                    record.lastError());
            return new Terminal(record.status(), record.errorClass(), record.lastError());
        }
        var now = clock.instant();
        var problem = ReferenceData.problemWith(answer.referenceType(), answer.records());
        if (problem.isPresent()) {
            var dead = Terminal.dead(ErrorClass.PROTOCOL, problem.get());
            tx.procStates().finish(msgId, dead, now);
            return dead;
        }
        tx.referenceData().refresh(answer.referenceType(), answer.records(), msgId, now);
        var match = responses == null ? null : responses.matchReference(tx.requests(), meta, answer.referenceType());
        var succeeded = Terminal.succeeded(reasonFor(answer, match));
        tx.procStates().finish(msgId, succeeded, now);
        if (match instanceof ResponseMatch.Matched matched) {
            tx.requests().complete(matched.request().id(), msgId, matched.mode(), now);
        }
        return succeeded;
    }

    /**
     * {@code reference: 3 record(s) of GATE}, followed by {@code ; answers request 12 (EXACT)} or
     * {@code ; no request: <why>} when requests are matched.
     */
    static String reasonFor(ReferenceAnswer answer, ResponseMatch match) {
        var reason = "reference: " + answer.records().size() + " record(s) of " + answer.referenceType();
        if (match instanceof ResponseMatch.Matched matched) {
            return reason + "; answers request " + matched.request().id() + " (" + matched.mode() + ")";
        }
        if (match instanceof ResponseMatch.Unmatched unmatched) {
            return reason + "; no request: " + unmatched.reason();
        }
        return reason;
    }
}
