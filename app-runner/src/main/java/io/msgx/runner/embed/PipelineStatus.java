package io.msgx.runner.embed;

import io.msgx.pipeline.codec.MessageIdentity;
import io.msgx.pipeline.codec.Peek;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.pump.FifoHead;
import io.msgx.pipeline.record.InboxCursor;
import io.msgx.pipeline.record.ProcRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the pipeline stands, as {@code status} prints it (and {@code status --json} serialises it).
 *
 * @param active                   whether this instance holds the leader lease (null when asked from outside)
 * @param watermark                every mailbox ID up to this is enqueued
 * @param holeSince                when the gap after the watermark was first seen; null when there is none
 * @param backlog                  open messages (PENDING + FAILED)
 * @param oldestUnprocessedSeconds age of the oldest open message; 0 when none
 * @param failed                   messages waiting for a retry
 * @param dead                     messages that need an operator
 * @param pendingEvents            outbox rows not yet delivered
 * @param deadEvents               outbox rows parked as dead letters
 * @param owedBackfills            mailbox marks still owed
 * @param abandonedBackfills       mailbox marks given up on, awaiting reconciliation or reopening
 * @param head                     the head of the FIFO queue; null when nothing is open
 */
public record PipelineStatus(
        Boolean active,
        long watermark,
        Instant holeSince,
        long backlog,
        long oldestUnprocessedSeconds,
        long failed,
        long dead,
        long pendingEvents,
        long deadEvents,
        long owedBackfills,
        long abandonedBackfills,
        FifoHead head) {

    private static final Logger log = LoggerFactory.getLogger(PipelineStatus.class);

    /** Where the pipeline stands at {@code now}, read from the store (and the head's kind, if need be, from the mailbox). */
    public static PipelineStatus read(PipelineStore store, Mailbox mailbox, Boolean active, Instant now) {
        var cursor = store.inboxCursor().load();
        var backlog = store.messageQueries().backlog();
        var delivery = store.outboxQueries().deliveryBacklog();
        var backfill = store.backfillMarks().backfillBacklog();
        var oldest = backlog.oldestOpenEnqueuedAt();
        var head = fifoHead(store, mailbox, cursor, now).orElse(null);
        return new PipelineStatus(active, cursor.watermark(), cursor.holeSince(), backlog.pending() + backlog.failed(),
                oldest == null ? 0 : Math.max(0, Duration.between(oldest, now).toSeconds()),
                backlog.failed(), backlog.dead(), delivery.pending(), delivery.dead(), backfill.owed(),
                backfill.abandoned(), head);
    }

    /** The head of the FIFO queue at {@code now}, and what holds it; empty when nothing is open. */
    public static Optional<FifoHead> fifoHead(PipelineStore store, Mailbox mailbox, Instant now) {
        return fifoHead(store, mailbox, store.inboxCursor().load(), now);
    }

    private static Optional<FifoHead> fifoHead(PipelineStore store, Mailbox mailbox, InboxCursor cursor, Instant now) {
        return store.queue().head().map(record -> FifoHead.of(record, cursor, kindOf(mailbox, record), now));
    }

    /**
     * The kind ({@code TYPE-STYP}) of an open message: from the identity its first attempt bound, else peeked from its
     * text in the mailbox; null when neither tells (the mailbox unreachable, the text gone or unreadable). Never
     * throws: the status of a pipeline whose mailbox is down must still be shown.
     */
    private static String kindOf(Mailbox mailbox, ProcRecord record) {
        var fromIdentity = MessageIdentity.kindOf(record.identityKey());
        if (fromIdentity.isPresent()) {
            return fromIdentity.get();
        }
        try {
            return mailbox.readText(record.msgId()).flatMap(text -> Peek.scan(text).kind()).orElse(null);
        } catch (RuntimeException e) {
            log.debug("Kind of message {} not peeked from the mailbox: {}", record.msgId(), e.toString());
            return null;
        }
    }

    /**
     * What makes this status degraded (a monitoring check's WARNING, {@code status}'s exit code 1); empty when healthy.
     * The flow is what counts: the head held (by a backoff, unknown traffic, the watermark or a hole) or open longer
     * than {@code maxHeadAge}, dead events waiting in the dead-letter queue, abandoned mailbox marks. DEAD messages
     * are shown but do not count: each one ended, was logged and counted ({@code msgx_pipeline_messages_ended_total}
     * is what alerts on them), and the queue moved on past it (D-80).
     */
    public List<String> problems(Duration maxHeadAge) {
        var problems = new ArrayList<String>();
        if (head != null && head.blocked()) {
            problems.add("FIFO head blocked by " + head.blockedBy().label() + ": " + head.summary());
        } else if (head != null && head.age().compareTo(maxHeadAge) > 0) {
            problems.add("FIFO head open longer than " + maxHeadAge.toSeconds() + " s: " + head.summary());
        }
        if (deadEvents > 0) {
            problems.add(deadEvents + " dead event(s) in the outbox: 'events dead' lists them");
        }
        if (abandonedBackfills > 0) {
            problems.add(abandonedBackfills + " abandoned mailbox mark(s): 'backfill abandoned' lists them");
        }
        return problems;
    }

    /**
     * The head as plain fields in a stable order (text, numbers, nulls), for every JSON that shows it: {@code status
     * --json}, {@code /health/ready}, the console's overview.
     */
    public static Map<String, Object> headFields(FifoHead head) {
        var fields = new LinkedHashMap<String, Object>();
        fields.put("msgId", head.msgId());
        fields.put("kind", head.kind());
        fields.put("state", head.status().name());
        fields.put("errorClass", head.errorClass() == null ? null : head.errorClass().name());
        fields.put("attempts", head.attempts());
        fields.put("nextAttemptAt", head.nextAttemptAt() == null ? null : head.nextAttemptAt().toString());
        fields.put("enqueuedAt", head.enqueuedAt().toString());
        fields.put("ageSeconds", head.age().toSeconds());
        fields.put("blockedBy", head.blocked() ? head.blockedBy().label() : null);
        fields.put("lastError", head.lastError());
        return fields;
    }
}
