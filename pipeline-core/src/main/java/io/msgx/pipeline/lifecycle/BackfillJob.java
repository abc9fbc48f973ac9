package io.msgx.pipeline.lifecycle;

import io.msgx.pipeline.mailbox.MailboxUnavailableException;
import io.msgx.pipeline.mailbox.MarkOutcome;
import io.msgx.pipeline.port.BackfillMarks;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.store.ProcRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Writes the processing mark owed to the shared mailbox for every message that ended (seeds §6).
 *
 * <p>One round: take up to {@code backfill-batch} rows with the seeds' scan predicate (overdue judged by our
 * own {@code ENQUEUED_AT}, never by the mailbox's {@code RECEIVED_AT}), write each mark, and record one of the
 * four outcomes. After the first transient failure in a round the remaining rows are not tried against the
 * mailbox (it is down); they are recorded as failed with the same reason, so each still reaches its deadline.
 * Attempts never abandon a row; only {@code R} does, and a missing row does at once. Abandoned is not marked:
 * operators list, reconcile or reopen abandoned rows.
 *
 * <p>A shadow deployment ({@code mailboxWrites=false}) never writes to the mailbox: the job does nothing.
 */
public final class BackfillJob {

    private static final Logger log = LoggerFactory.getLogger(BackfillJob.class);

    private final Mailbox mailbox;
    private final BackfillMarks backfillMarks;
    private final MessageLifecycleGate gate;
    private final LifecycleSettings settings;
    private final boolean mailboxWrites;
    private final Clock clock;

    public BackfillJob(Mailbox mailbox, BackfillMarks backfillMarks, MessageLifecycleGate gate, LifecycleSettings settings,
                       boolean mailboxWrites, Clock clock) {
        this.mailbox = mailbox;
        this.backfillMarks = backfillMarks;
        this.gate = gate;
        this.settings = settings;
        this.mailboxWrites = mailboxWrites;
        this.clock = clock;
    }

    /** One round; the results in scan order (empty in a shadow deployment). */
    public List<BackfillResult> runOnce() {
        if (!mailboxWrites) {
            return List.of();
        }
        return gate.exclusively(this::round);
    }

    /**
     * One batch: the due rows are marked in the mailbox together ({@link Mailbox#markAllProcessed}), and the marks
     * found written or already there are confirmed together. An unreachable mailbox fails the whole batch
     * transiently; nothing is confirmed that the mailbox did not answer for.
     */
    private List<BackfillResult> round() {
        var now = clock.instant();
        var due = backfillMarks.backfillDue(now, now.minus(settings.backfillOverdue()), settings.backfillBatch());
        if (due.isEmpty()) {
            return List.of();
        }
        Map<Long, MarkOutcome> marks;
        try {
            marks = mailbox.markAllProcessed(due.stream().map(ProcRecord::msgId).toList(), now);
        } catch (MailboxUnavailableException e) {
            return due.stream().map(row -> transientFailure(row, e.getMessage(), now)).toList();
        }
        backfillMarks.backfillConfirmedAll(due.stream().map(ProcRecord::msgId)
                .filter(id -> marks.get(id) != MarkOutcome.MISSING_ROW).toList(), now);
        return due.stream().map(row -> settled(row, marks.get(row.msgId()), now)).toList();
    }

    private BackfillResult settled(ProcRecord row, MarkOutcome outcome, Instant now) {
        return switch (outcome) {
            case WRITTEN -> new BackfillResult.Written(row.msgId());
            case ALREADY_MARKED -> new BackfillResult.AlreadyMarked(row.msgId());
            case MISSING_ROW -> {
                backfillMarks.backfillAbandoned(row.msgId(), "MISSING_ROW", now);
                log.error("ALERT backfill: mailbox row {} ({} since {}) no longer exists; its mark is abandoned "
                        + "(MISSING_ROW) and needs reconciliation", row.msgId(), row.status(), row.enqueuedAt());
                yield new BackfillResult.RowMissing(row.msgId());
            }
        };
    }

    private BackfillResult transientFailure(ProcRecord row, String reason, Instant now) {
        if (!row.enqueuedAt().plus(settings.backfillOverdue()).isAfter(now)) {
            backfillMarks.backfillAbandoned(row.msgId(), "TRANSIENT_DEADLINE", now);
            log.error("ALERT backfill: mark of message {} still not written {} after enqueue (R); automatic retries "
                    + "stop (TRANSIENT_DEADLINE). Last failure: {}", row.msgId(), settings.backfillOverdue(), reason);
            return new BackfillResult.TransientFailure(row.msgId(), reason, true);
        }
        int attempts = row.backfillAttempts() + 1;
        backfillMarks.backfillFailed(row.msgId(), now.plus(settings.backfillWait(attempts)), now);
        if (attempts >= settings.backfillAlertAttempts()) {
            log.warn("ALERT backfill: mark of message {} failed {} times (retried until R): {}", row.msgId(), attempts,
                    reason);
        }
        return new BackfillResult.TransientFailure(row.msgId(), reason, false);
    }
}
