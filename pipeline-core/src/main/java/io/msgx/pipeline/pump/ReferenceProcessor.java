package io.msgx.pipeline.pump;

import io.msgx.pipeline.codec.MessageMeta;
import io.msgx.pipeline.codec.ReferenceAction;
import io.msgx.pipeline.codec.ReferenceAnswer;
import io.msgx.pipeline.codec.ReferenceRecord;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.port.PipelineTransaction;
import io.msgx.pipeline.port.ReferenceData;
import io.msgx.pipeline.published.ReferenceEventJson;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ReferenceEvent;
import io.msgx.pipeline.request.ResponseMatch;
import io.msgx.pipeline.request.ResponseMatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Applies a reference message ({@code TYPE=<reference type>}, {@code STYP} = {@code DNLD}, {@code RESP}, {@code ADD},
 * {@code UPD} or {@code DEL}, sis-format §6) to {@code REF_MASTER} and publishes every change through the outbox
 * ({@code KAFKA:ref}, D-60).
 *
 * <p>In one transaction holding {@code PIPELINE_LOCK}, as {@link FlightProcessor} does: a message that is no longer
 * open (it ended already) is an idempotent success and nothing is written again. A message whose type or a key does
 * not fit the table, or whose {@code RECS} differs from the number of records it carries, ends
 * {@code DEAD(PROTOCOL)} without writing anything. Otherwise, by record key (a key given twice keeps its last record):
 * <ul>
 *   <li>{@code DNLD}, {@code RESP}, {@code ADD}, {@code UPD}: each record is written whole (insert or replace) and
 *       published as an upsert;</li>
 *   <li>{@code DEL}: each record with that key is removed and published as a tombstone; a key we do not hold is an
 *       idempotent success (nothing published);</li>
 *   <li>a {@code DNLD} also removes (and publishes a tombstone for) every record of the type it does not carry, only
 *       when {@link ReferenceSettings#dnldRemovesAbsent()} (D-59; off by default);</li>
 *   <li>a record last written by a <em>later</em> message is neither overwritten nor removed (a replayed old message,
 *       D-19), and nothing is published for it.</li>
 * </ul>
 * The message ends {@code SUCCEEDED(reference: N record(s) of TYPE ...)} in the same transaction.
 *
 * <p>With a {@link ResponseMatcher}, the reference request ({@code RQRD}) a {@code RESP} belongs to becomes
 * {@code DONE} in the same transaction (only {@code RESP} answers a request). Unlike a schedule answer, a reference
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
    private final ReferenceSettings settings;

    /** A processor that applies reference messages with the default settings and never closes a request. */
    public ReferenceProcessor(PipelineStore store, Clock clock) {
        this(store, clock, null);
    }

    /** A processor with the default settings that also closes the reference request a {@code RESP} belongs to. */
    public ReferenceProcessor(PipelineStore store, Clock clock, ResponseMatcher responses) {
        this(store, clock, responses, ReferenceSettings.defaults());
    }

    /** {@code responses}: the matcher of answers to our requests (null: none). */
    public ReferenceProcessor(PipelineStore store, Clock clock, ResponseMatcher responses, ReferenceSettings settings) {
        this.store = store;
        this.clock = clock;
        this.responses = responses;
        this.settings = settings;
    }

    /** Process the message and return how it ended; it is already persisted when this returns. */
    public MessageEnd apply(ProcRecord head, MessageMeta meta, ReferenceAnswer answer) {
        return store.inLockedTransaction(tx -> applyAndEnd(tx, head.msgId(), meta, answer));
    }

    private MessageEnd applyAndEnd(PipelineTransaction tx, long msgId, MessageMeta meta, ReferenceAnswer answer) {
        var record = tx.queue().find(msgId).orElseThrow(() -> new IllegalStateException(
                "message " + msgId + " has no PROC_STATE row; it must be enqueued before it is processed"));
        if (!record.status().isOpen()) {
            log.info("Message {} already ended {} ({}); reference data not written again", msgId, record.status(),
                    record.lastError());
            return new MessageEnd(record.status(), record.errorClass(), record.lastError());
        }
        var now = clock.instant();
        var problem = problemWith(answer);
        if (problem.isPresent()) {
            var dead = MessageEnd.dead(ErrorClass.PROTOCOL, problem.get() + "; nothing applied");
            tx.queue().finish(msgId, dead, now);
            return dead;
        }
        var changes = apply(tx, msgId, answer, now);
        var match = responses == null || answer.action() != ReferenceAction.RESP ? null
                : responses.matchReference(tx.requests(), meta, answer.referenceType());
        if (match instanceof ResponseMatch.Matched matched
                && !tx.requests().complete(matched.request().id(), msgId, matched.mode(), now)) {
            // Closed by the expiry job since the match: the data is kept (reference data needs no request), the
            // request is not reopened, and the reason says so.
            match = new ResponseMatch.Unmatched("request " + matched.request().id() + " was closed while its answer"
                    + " was processed");
        }
        var succeeded = MessageEnd.succeeded(reasonFor(answer, changes, match));
        tx.queue().finish(msgId, succeeded, now);
        return succeeded;
    }

    /** Why the message cannot be applied at all: a type or key the table cannot hold, or a wrong {@code RECS}. */
    static Optional<String> problemWith(ReferenceAnswer answer) {
        var problem = ReferenceData.problemWith(answer.referenceType(), answer.records());
        if (problem.isPresent()) {
            return problem;
        }
        if (answer.declaredCount() != null && answer.declaredCount() != answer.records().size()) {
            return Optional.of("RECS says " + answer.declaredCount() + " but the message carries "
                    + answer.records().size() + " " + answer.referenceType() + " record(s)");
        }
        return Optional.empty();
    }

    /** What one message changed: records written, removed, and left alone because a later message wrote them. */
    record Changes(int written, int removed, int keptNewer) {
    }

    private Changes apply(PipelineTransaction tx, long msgId, ReferenceAnswer answer, Instant now) {
        var type = answer.referenceType();
        var references = tx.referenceData();
        Map<String, Long> writers = references.writers(type);
        var byKey = ReferenceData.lastByKey(answer.records());
        var events = new ArrayList<ReferenceEvent>();
        int keptNewer = 0;
        var removed = new ArrayList<String>();
        if (answer.action().writes()) {
            var written = new ArrayList<ReferenceRecord>();
            for (var entry : byKey.values()) {
                if (writtenLater(writers.get(entry.key()), msgId)) {
                    keptNewer++;
                } else {
                    written.add(entry);
                    events.add(new ReferenceEvent(type, entry.key(), OutboxEvent.EventType.UPSERT, msgId,
                            ReferenceEventJson.upsert(type, entry.key(), entry.document(), msgId, now), now));
                }
            }
            references.refresh(type, written, msgId, now);
            if (answer.action() == ReferenceAction.DNLD && settings.dnldRemovesAbsent()) {
                for (var stored : writers.entrySet()) {
                    if (byKey.containsKey(stored.getKey())) {
                        continue;
                    }
                    if (writtenLater(stored.getValue(), msgId)) {
                        keptNewer++;
                    } else {
                        removed.add(stored.getKey());
                    }
                }
            }
            removeAndPublish(references, type, removed, msgId, now, events);
            tx.referenceNotifications().upsertReferences(events);
            return new Changes(written.size(), removed.size(), keptNewer);
        }
        for (var key : byKey.keySet()) {
            var writer = writers.get(key);
            if (writer == null) {
                continue; // a DEL of a key we do not hold: nothing to do
            }
            if (writtenLater(writer, msgId)) {
                keptNewer++;
            } else {
                removed.add(key);
            }
        }
        removeAndPublish(references, type, removed, msgId, now, events);
        tx.referenceNotifications().upsertReferences(events);
        return new Changes(0, removed.size(), keptNewer);
    }

    private static void removeAndPublish(ReferenceData references, String type, List<String> keys, long msgId,
                                         Instant now, List<ReferenceEvent> events) {
        if (keys.isEmpty()) {
            return;
        }
        references.remove(type, keys, msgId);
        keys.forEach(key -> events.add(new ReferenceEvent(type, key, OutboxEvent.EventType.TOMBSTONE, msgId, null, now)));
    }

    /** A record whose last writer is a message after {@code msgId} (a replayed old message must not touch it). */
    private static boolean writtenLater(Long writer, long msgId) {
        return writer != null && writer > msgId;
    }

    /**
     * {@code reference: 3 record(s) of GATE} (a {@code RESP}), or {@code reference: 3 record(s) of GLST (UPD)} for the
     * other actions; then {@code , 2 removed} when records were removed and {@code , 1 kept (written by a later
     * message)} when a replay left records alone; followed by {@code ; answers request 12 (EXACT)} or
     * {@code ; no request: <why>} when requests are matched.
     */
    static String reasonFor(ReferenceAnswer answer, Changes changes, ResponseMatch match) {
        var reason = new StringBuilder("reference: ").append(answer.records().size()).append(" record(s) of ")
                .append(answer.referenceType());
        if (answer.action() != ReferenceAction.RESP) {
            reason.append(" (").append(answer.action()).append(')');
        }
        if (changes.removed() > 0) {
            reason.append(", ").append(changes.removed()).append(" removed");
        }
        if (changes.keptNewer() > 0) {
            reason.append(", ").append(changes.keptNewer()).append(" kept (written by a later message)");
        }
        if (match != null) {
            reason.append(match.match(REQUEST_NOTE));
        }
        return reason.toString();
    }

    /** What a reference answer's outcome says of the request it answers, when requests are matched. */
    private static final ResponseMatch.Cases<String> REQUEST_NOTE = new ResponseMatch.Cases<>() {
        @Override
        public String matched(ResponseMatch.Matched matched) {
            return "; answers request " + matched.request().id() + " (" + matched.mode() + ")";
        }

        @Override
        public String unmatched(ResponseMatch.Unmatched unmatched) {
            return "; no request: " + unmatched.reason();
        }
    };
}
