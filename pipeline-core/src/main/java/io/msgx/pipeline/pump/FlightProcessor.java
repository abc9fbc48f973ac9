package io.msgx.pipeline.pump;

import io.msgx.domain.engine.Decision;
import io.msgx.domain.engine.FlightChange;
import io.msgx.domain.engine.FlightStateEngine;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.OperationDay;
import io.msgx.domain.message.FlightMessage;
import io.msgx.domain.message.ScheduleKind;
import io.msgx.domain.message.ScheduleMessage;
import io.msgx.pipeline.codec.DecodedMessage;
import io.msgx.pipeline.request.ResponseMatch;
import io.msgx.pipeline.request.ResponseMatcher;
import io.msgx.pipeline.store.PipelineStore;
import io.msgx.pipeline.store.PipelineTransaction;
import io.msgx.pipeline.store.ProcRecord;
import io.msgx.pipeline.store.ScheduleLog;
import io.msgx.pipeline.store.Terminal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Applies a schedule ({@code SCHD DNLD/RESP/ADFT}), an operation ({@code FLOP}) or a deletion ({@code FDEL}):
 * the business transaction of the pipeline.
 *
 * <p>In one transaction holding {@code PIPELINE_LOCK}: read the flights the message needs, call the engine
 * once, write the changed flights (main rows and every list), one {@code KAFKA:msg} notification per changed
 * flight and its {@code KAFKA:schd} projection (or tombstone), and end the message with its backfill intent.
 * Everything commits together or not at all (INV-17). A message that is no longer open when the transaction
 * starts (it ended already) is an idempotent success: nothing is written again.
 *
 * <p>A schedule answer ({@code SCHD/RESP}) is applied only when it answers one of our open requests
 * ({@link ResponseMatcher}); otherwise it ends {@code SKIPPED(no-match:...)} with nothing applied. The request it
 * answers becomes {@code DONE} in the same transaction, and only when the answer was applied successfully.
 *
 * <p>After the commit, a schedule leaves a line in {@code SCHD_SNAP_LOG}; losing that line to a crash loses
 * nothing that matters, so its failure is logged, not raised.
 */
public final class FlightProcessor {

    private static final Logger log = LoggerFactory.getLogger(FlightProcessor.class);

    private final PipelineStore store;
    private final FlightStateEngine engine;
    private final FlightChangeWriter writer = new FlightChangeWriter();
    private final Clock clock;

    private final ResponseMatcher responses;

    /** A processor that applies every schedule answer ({@code SCHD/RESP}) without asking which request it answers. */
    public FlightProcessor(PipelineStore store, FlightStateEngine engine, Clock clock) {
        this(store, engine, clock, null);
    }

    /**
     * A processor that applies a schedule answer only when it matches one of our open requests
     * ({@code responses}; null turns the guard off), and closes that request in the same transaction.
     */
    public FlightProcessor(PipelineStore store, FlightStateEngine engine, Clock clock, ResponseMatcher responses) {
        this.store = store;
        this.engine = engine;
        this.clock = clock;
        this.responses = responses;
    }

    /** Process the message and return how it ended; it is already persisted when this returns. */
    public Terminal apply(ProcRecord head, DecodedMessage message, FlightMessage flightMessage) {
        var outcome = store.inLockedTransaction(tx -> decideAndWrite(tx, head.msgId(), message, flightMessage));
        if (flightMessage instanceof ScheduleMessage schedule) {
            appendTrail(head.msgId(), schedule, outcome);
        }
        return outcome.terminal();
    }

    private record Outcome(Terminal terminal, Decision decision, boolean replayed) {
    }

    private Outcome decideAndWrite(PipelineTransaction tx, long msgId, DecodedMessage message, FlightMessage flightMessage) {
        var record = tx.procStates().find(msgId).orElseThrow(() -> new IllegalStateException(
                "message " + msgId + " has no PROC_STATE row; it must be enqueued before it is processed"));
        if (!record.status().isOpen()) {
            log.info("Message {} already ended {} ({}); not applied again", msgId, record.status(), record.lastError());
            return new Outcome(new Terminal(record.status(), record.errorClass(), record.lastError()), null, true);
        }
        ResponseMatch.Matched answered = null;
        if (responses != null && flightMessage instanceof ScheduleMessage schedule && schedule.kind() == ScheduleKind.RESP) {
            var match = responses.match(tx.requests(), message.meta(), schedule);
            if (match instanceof ResponseMatch.Unmatched unmatched) {
                var terminal = Terminal.skipped("no-match:" + unmatched.reason());
                tx.procStates().finish(msgId, terminal, clock.instant());
                return new Outcome(terminal, null, false);
            }
            answered = (ResponseMatch.Matched) match;
        }
        var snapshot = FlightReads.snapshotFor(engine, tx.flights(), flightMessage);
        var decision = engine.apply(snapshot, flightMessage, msgId);
        var now = clock.instant();
        var terminal = terminalOf(decision);
        if (decision instanceof Decision.Applied applied) {
            writer.write(tx, applied.changes(), msgId, message.meta().type(), message.meta().subtype(), now);
        }
        tx.procStates().finish(msgId, terminal, now);
        if (answered != null && terminal.status() == io.msgx.pipeline.store.ProcStatus.SUCCEEDED) {
            tx.requests().complete(answered.request().id(), msgId, answered.mode(), now);
        }
        return new Outcome(terminal, decision, false);
    }

    private static Terminal terminalOf(Decision decision) {
        if (decision instanceof Decision.Applied applied) {
            return Terminal.succeeded("applied: " + applied.changes().size() + " flight(s) changed");
        }
        if (decision instanceof Decision.Rejected rejected) {
            return Terminal.dead(io.msgx.pipeline.store.ErrorClass.PROTOCOL, rejected.reason());
        }
        var noChange = (Decision.NoChange) decision;
        return switch (noChange.reason()) {
            case UNCHANGED -> Terminal.succeeded("unchanged");
            case ALREADY_DELETED -> Terminal.succeeded("already-deleted");
            case DELETE_OF_UNKNOWN_FLIGHT -> Terminal.succeeded("unknown-flight");
            case OPERATION_ON_UNKNOWN_FLIGHT -> Terminal.skipped("no-match:unknown-flight");
            case OPERATION_ON_DELETED_FLIGHT -> Terminal.skipped("no-match:deleted-flight");
        };
    }

    private void appendTrail(long msgId, ScheduleMessage schedule, Outcome outcome) {
        try {
            var changed = outcome.decision() instanceof Decision.Applied a ? a.changes() : List.<FlightChange>of();
            var days = changed.stream().map(FlightChange::after).map(FlightState::operationDay)
                    .filter(Objects::nonNull).map(OperationDay::date).sorted(Comparator.naturalOrder()).toList();
            var result = outcome.replayed() ? "REPLAYED"
                    : outcome.decision() == null ? "UNMATCHED"
                    : outcome.decision() instanceof Decision.Applied ? "APPLIED"
                    : outcome.decision() instanceof Decision.Rejected ? "REJECTED" : "UNCHANGED";
            store.scheduleLog().append(new ScheduleLog.Entry(msgId, schedule.kind().name(),
                    days.isEmpty() ? null : days.get(0), days.isEmpty() ? null : days.get(days.size() - 1),
                    schedule.records().size(), changed.size(), result, clock.instant()));
        } catch (RuntimeException e) {
            log.warn("Message {}: schedule trail not written ({}); the state is committed and unaffected", msgId, e.toString());
        }
    }
}
