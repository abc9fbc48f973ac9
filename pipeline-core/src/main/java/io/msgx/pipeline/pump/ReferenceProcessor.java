package io.msgx.pipeline.pump;

import io.msgx.pipeline.codec.ReferenceAnswer;
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
 */
public final class ReferenceProcessor {

    private static final Logger log = LoggerFactory.getLogger(ReferenceProcessor.class);

    private final PipelineStore store;
    private final Clock clock;

    public ReferenceProcessor(PipelineStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** Process the answer and return how the message ended; it is already persisted when this returns. */
    public Terminal apply(ProcRecord head, ReferenceAnswer answer) {
        return store.inLockedTransaction(tx -> refreshAndEnd(tx, head.msgId(), answer));
    }

    private Terminal refreshAndEnd(PipelineTransaction tx, long msgId, ReferenceAnswer answer) {
        var record = tx.procStates().find(msgId).orElseThrow(() -> new IllegalStateException(
                "message " + msgId + " has no PROC_STATE row; it must be enqueued before it is processed"));
        if (!record.status().isOpen()) {
            log.info("Message {} already ended {} ({}); reference data not written again", msgId, record.status(),
                    record.lastError());
            return new Terminal(record.status(), record.errorClass(), record.lastError());
        }
        var now = clock.instant();
        var problem = ReferenceData.problemWith(answer.referenceType(), answer.records());
        var terminal = problem.isPresent()
                ? Terminal.dead(ErrorClass.PROTOCOL, problem.get())
                : Terminal.succeeded(reasonFor(answer));
        if (problem.isEmpty()) {
            tx.referenceData().refresh(answer.referenceType(), answer.records(), msgId, now);
        }
        tx.procStates().finish(msgId, terminal, now);
        return terminal;
    }

    /** {@code reference: 3 record(s) of GATE}. */
    static String reasonFor(ReferenceAnswer answer) {
        return "reference: " + answer.records().size() + " record(s) of " + answer.referenceType();
    }
}
