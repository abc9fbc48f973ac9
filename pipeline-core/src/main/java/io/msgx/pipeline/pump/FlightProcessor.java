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
import io.msgx.pipeline.port.MessageQueue;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.port.PipelineTransaction;
import io.msgx.pipeline.port.ScheduleLog;
import io.msgx.pipeline.published.ChangeCause;
import io.msgx.pipeline.published.FlightEventJson;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.request.ResponseMatch;
import io.msgx.pipeline.request.ResponseMatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

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
 * <p>Several head messages may share that transaction ({@link #applyGroup}, decision D-34): their decisions are
 * made one after the other, each seeing the flights as the previous left them, and written together in batched
 * statements. A group is all or nothing; when it fails, the caller redoes it one message at a time, so a bad
 * message fails alone and FIFO holds.
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
    private final FlightEventJson json;
    private final Clock clock;

    private final ResponseMatcher responses;
    private final FlightCache cache;

    /** A processor that applies every schedule answer ({@code SCHD/RESP}) without asking which request it answers. */
    public FlightProcessor(PipelineStore store, FlightStateEngine engine, Clock clock) {
        this(store, engine, clock, null);
    }

    /**
     * A processor that applies a schedule answer only when it matches one of our open requests
     * ({@code responses}; null turns the guard off), and closes that request in the same transaction.
     */
    public FlightProcessor(PipelineStore store, FlightStateEngine engine, Clock clock, ResponseMatcher responses) {
        this(store, engine, clock, responses, FlightCache.off());
    }

    /**
     * As {@link #FlightProcessor(PipelineStore, FlightStateEngine, Clock, ResponseMatcher)}, reading flights
     * through {@code cache}: only the stamps of the flights a transaction needs, and whole only those the cache does
     * not hold in their stored state (D-39).
     */
    public FlightProcessor(PipelineStore store, FlightStateEngine engine, Clock clock, ResponseMatcher responses,
                           FlightCache cache) {
        this.store = store;
        this.engine = engine;
        this.json = new FlightEventJson(engine.settings().operationDayRule().airportZone());
        this.clock = clock;
        this.responses = responses;
        this.cache = Objects.requireNonNull(cache, "cache");
    }

    /** One flight message to apply: its processing record, the decoded message and its flight payload. */
    public record Work(ProcRecord head, DecodedMessage message, FlightMessage flightMessage) {
    }

    /** Process the message and return how it ended; it is already persisted when this returns. */
    public MessageEnd apply(ProcRecord head, DecodedMessage message, FlightMessage flightMessage) {
        return applyGroup(List.of(new Work(head, message, flightMessage)), List.of()).get(head.msgId());
    }

    /**
     * Apply a group of flight messages, in order, in one locked transaction, and write {@code decided} (endings
     * settled before the transaction: duplicates, ignored and malformed messages of the same group) with them.
     * Each message's decision reads the flights as the earlier ones left them, exactly as if each had its own
     * transaction; everything commits together or not at all. Throws — and writes nothing — when any message
     * throws or is found ended by someone else; the caller then processes the group one message at a time.
     *
     * @return how each message of {@code work} ended, by ID, in order
     */
    public Map<Long, MessageEnd> applyGroup(List<Work> work, List<MessageQueue.Ending> decided) {
        var group = store.inLockedTransaction(tx -> decideAndWrite(tx, work, decided));
        cache.remember(group.written()); // committed: what the store now holds
        var outcomes = group.outcomes();
        appendTrail(work, outcomes);
        var terminals = new LinkedHashMap<Long, MessageEnd>();
        outcomes.forEach((msgId, outcome) -> terminals.put(msgId, outcome.terminal()));
        return terminals;
    }

    private record Outcome(MessageEnd terminal, Decision decision, boolean replayed) {
    }

    /** What a group's transaction decided, message by message, and the flights it wrote, each in its last state. */
    private record Decided(Map<Long, Outcome> outcomes, List<FlightState> written) {
    }

    private Decided decideAndWrite(PipelineTransaction tx, List<Work> work, List<MessageQueue.Ending> decided) {
        var records = tx.queue().findAll(work.stream().map(w -> w.head().msgId()).toList());
        var writer = new FlightChangeWriter(tx.flights(), json, cache);
        if (work.size() > 1) {
            // One read for every flight the group names, and for their code-share children (each may be a master
            // whose MAFL a decision derives), instead of one of each per message.
            var named = work.stream().flatMap(w -> engine.flightsNamedBy(w.flightMessage()).stream())
                    .collect(Collectors.toCollection(LinkedHashSet::new));
            writer.readAhead(named, named);
        }
        var endings = new ArrayList<>(decided);
        var outcomes = new LinkedHashMap<Long, Outcome>();
        var now = clock.instant();
        for (var item : work) {
            long msgId = item.head().msgId();
            try (var message = MessageLogContext.message(msgId)) {
                var record = records.get(msgId);
                if (record == null) {
                    throw new IllegalStateException("message " + msgId + " has no PROC_STATE row; it must be enqueued "
                            + "before it is processed");
                }
                if (!record.status().isOpen()) {
                    log.info("Message {} already ended {} ({}); not applied again", msgId, record.status(),
                            record.lastError());
                    outcomes.put(msgId, new Outcome(new MessageEnd(record.status(), record.errorClass(),
                            record.lastError()), null, true));
                    continue;
                }
                var outcome = decide(tx, writer, item, record.lastError(), now);
                endings.add(new MessageQueue.Ending(msgId, outcome.terminal()));
                outcomes.put(msgId, outcome);
            }
        }
        writer.flush(tx, now);
        int ended = tx.queue().finishAll(endings, now);
        if (ended != endings.size()) {
            throw new IllegalStateException("only " + ended + " of " + endings.size() + " messages of the group "
                    + "were still open; someone else ended the others");
        }
        return new Decided(outcomes, writer.written());
    }

    /**
     * One message's decision, recorded in {@code writer}; a matched request is closed at once. {@code previousOutcome}
     * is what the message's record holds before it: for a replayed batch applied in part, the FLIDs it still owes (its
     * other bodies were applied before, D-118); the whole message is decided otherwise.
     */
    private Outcome decide(PipelineTransaction tx, FlightChangeWriter writer, Work item, String previousOutcome,
                           Instant now) {
        long msgId = item.head().msgId();
        var meta = item.message().meta();
        ResponseMatch.Matched answered = null;
        if (responses != null && item.flightMessage() instanceof ScheduleMessage schedule
                && schedule.kind() == ScheduleKind.RESP) {
            var match = responses.match(tx.requests(), meta, schedule);
            if (match instanceof ResponseMatch.Unmatched unmatched) {
                return new Outcome(MessageEnd.skipped("no-match:" + unmatched.reason()), null, false);
            }
            answered = (ResponseMatch.Matched) match;
        }
        var owed = BatchOutcome.owedFlights(previousOutcome);
        var flightMessage = BatchOutcome.owedParts(item.flightMessage(), owed);
        var snapshot = FlightReads.snapshotFor(engine, writer.flights(), flightMessage);
        var decision = engine.apply(snapshot, flightMessage, msgId);
        var terminal = terminalOf(decision);
        if (!owed.isEmpty() && decision instanceof Decision.NoChange none && none.reason().noMatch()) {
            // Replayed before its flights exist: still applied in part, still owing the same bodies.
            terminal = MessageEnd.succeeded(previousOutcome);
        }
        if (decision instanceof Decision.Applied) {
            var mode = engine.listModeOf(flightMessage);
            if (mode.isPresent()) {
                terminal = MessageEnd.succeeded(terminal.reason() + "; " + mode.get());
            }
        }
        // The request is closed before anything of its answer is written, by a conditional write in this transaction:
        // a request the expiry job closed since the match leaves the answer unapplied, never applied to a closed one.
        if (answered != null && terminal.status() == ProcStatus.SUCCEEDED
                && !tx.requests().complete(answered.request().id(), msgId, answered.mode(), now)) {
            return new Outcome(MessageEnd.skipped("no-match:request " + answered.request().id()
                    + " was closed while its answer was processed"), null, false);
        }
        if (decision instanceof Decision.Applied applied) {
            writer.add(applied.changes(), ChangeCause.message(msgId, meta), now);
        }
        return new Outcome(terminal, decision, false);
    }

    private static MessageEnd terminalOf(Decision decision) {
        return decision.match(TERMINAL);
    }

    /** How a message ends for each decision. */
    private static final Decision.Cases<MessageEnd> TERMINAL = new Decision.Cases<>() {
        @Override
        public MessageEnd applied(Decision.Applied applied) {
            return MessageEnd.succeeded(BatchOutcome.describe(applied));
        }

        @Override
        public MessageEnd noChange(Decision.NoChange noChange) {
            if (!noChange.detail().isEmpty()) {
                log.debug("No change: {}", noChange.detail());
            }
            String reason = BatchOutcome.name(noChange.reason());
            return noChange.reason().noMatch() ? MessageEnd.skipped(reason) : MessageEnd.succeeded(reason);
        }

        @Override
        public MessageEnd rejected(Decision.Rejected rejected) {
            return MessageEnd.dead(io.msgx.pipeline.record.ErrorClass.PROTOCOL, rejected.reason());
        }
    };

    /** One {@code SCHD_SNAP_LOG} line per schedule of the group, after the commit; losing them loses nothing. */
    private void appendTrail(List<Work> work, Map<Long, Outcome> outcomes) {
        var entries = new ArrayList<ScheduleLog.Entry>();
        for (var item : work) {
            if (item.flightMessage() instanceof ScheduleMessage schedule) {
                entries.add(trailEntry(item.head().msgId(), schedule, outcomes.get(item.head().msgId())));
            }
        }
        if (entries.isEmpty()) {
            return;
        }
        try {
            store.scheduleLog().appendAll(entries);
        } catch (RuntimeException e) {
            log.warn("Schedule trail of message(s) {} not written ({}); the state is committed and unaffected",
                    entries.stream().map(ScheduleLog.Entry::msgId).toList(), e.toString());
        }
    }

    /** A decided schedule's result in the trail ({@code SCHD_SNAP_LOG.RESULT}). */
    private static final Decision.Cases<String> TRAIL_RESULT = new Decision.Cases<>() {
        @Override
        public String applied(Decision.Applied applied) {
            return "APPLIED";
        }

        @Override
        public String noChange(Decision.NoChange noChange) {
            return "UNCHANGED";
        }

        @Override
        public String rejected(Decision.Rejected rejected) {
            return "REJECTED";
        }
    };

    private ScheduleLog.Entry trailEntry(long msgId, ScheduleMessage schedule, Outcome outcome) {
        var changed = outcome.decision() instanceof Decision.Applied a ? a.changes() : List.<FlightChange>of();
        var days = changed.stream().map(FlightChange::after).map(FlightState::operationDay)
                .filter(Objects::nonNull).map(OperationDay::date).sorted(Comparator.naturalOrder()).toList();
        var result = outcome.replayed() ? "REPLAYED"
                : outcome.decision() == null ? "UNMATCHED"
                : outcome.decision().match(TRAIL_RESULT);
        return new ScheduleLog.Entry(msgId, schedule.kind().name(),
                days.isEmpty() ? null : days.get(0), days.isEmpty() ? null : days.get(days.size() - 1),
                schedule.records().size(), changed.size(), result, clock.instant());
    }
}
