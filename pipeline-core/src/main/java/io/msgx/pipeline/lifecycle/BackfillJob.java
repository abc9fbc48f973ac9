package io.msgx.pipeline.lifecycle;

import io.msgx.pipeline.mailbox.MailboxUnavailableException;
import io.msgx.pipeline.mailbox.MarkOutcome;
import io.msgx.pipeline.port.BackfillMarks;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.record.ProcRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes the processing mark owed to the shared mailbox for every message that ended (seeds §6).
 *
 * <p>One round: take up to {@code backfill-batch} rows with the seeds' scan predicate (overdue judged by our
 * own {@code ENQUEUED_AT}, never by the mailbox's {@code RECEIVED_AT}), write their marks together, and record one
 * of the four outcomes per row. When the marks written together fail, the rows are marked one at a time, so that one
 * stuck row (locked by the AODB side, say) does not fail the others; but when the first row tried alone fails too,
 * the mailbox is taken as down and the remaining rows are recorded as failed without being tried, so a down mailbox
 * costs one batch call and one single call a round, not a timeout per row (D-104).
 *
 * <p>Attempts never abandon a row; only {@code R} does, counted from the first transient failure of the mark
 * ({@code BACKFILL_FAILING_SINCE}), not from the enqueue: a message that ends long after it was enqueued (a backlog,
 * a cut-over) still has {@code R} of failures before its mark is abandoned (D-104). A missing row is abandoned at
 * once. Abandoned is not marked: operators list, reconcile or reopen abandoned rows.
 *
 * <p>A shadow deployment ({@code mailboxWrites=false}) never writes to the mailbox: the job does nothing.
 *
 * <p>Rounds run one at a time ({@link MessageLifecycleGate}); the job remembers between rounds only which rows failed
 * when tried alone (see {@link #failedAlone}).
 */
public final class BackfillJob {

    private static final Logger log = LoggerFactory.getLogger(BackfillJob.class);

    private final Mailbox mailbox;
    private final BackfillMarks backfillMarks;
    private final MessageLifecycleGate gate;
    private final LifecycleSettings settings;
    private final boolean mailboxWrites;
    private final Clock clock;

    /**
     * The rows that failed when tried alone the last time rows were marked one at a time: they are tried alone last.
     * Rows that failed together are retried together, in the same order; without this, a stuck row at the head of
     * that order would make the mailbox look down round after round and fail the others with it.
     */
    private Set<Long> failedAlone = Set.of();

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
     * One batch: the due rows are marked in the mailbox ({@link #mark}), and the marks found written or already
     * there are confirmed together. Nothing is confirmed that the mailbox did not answer for.
     */
    private List<BackfillResult> round() {
        var now = clock.instant();
        var due = backfillMarks.backfillDue(now, now.minus(settings.backfillOverdue()), settings.backfillBatch());
        if (due.isEmpty()) {
            return List.of();
        }
        var marks = mark(due, now);
        backfillMarks.backfillConfirmedAll(due.stream().map(ProcRecord::msgId)
                .filter(id -> marks.outcomes().containsKey(id) && marks.outcomes().get(id) != MarkOutcome.MISSING_ROW)
                .toList(), now);
        return due.stream().map(row -> marks.failures().containsKey(row.msgId())
                ? transientFailure(row, marks.failures().get(row.msgId()), now)
                : settled(row, marks.outcomes().get(row.msgId()), now)).toList();
    }

    /** What the mailbox answered per row, and the rows it did not answer for, with the reason. */
    private record Marks(Map<Long, MarkOutcome> outcomes, Map<Long, String> failures) {
    }

    /**
     * All rows together ({@link Mailbox#markAllProcessed}); if that fails, one at a time ({@link #markOneByOne}). A
     * single row that failed together is not tried again alone.
     */
    private Marks mark(List<ProcRecord> due, Instant now) {
        try {
            return new Marks(mailbox.markAllProcessed(due.stream().map(ProcRecord::msgId).toList(), now), Map.of());
        } catch (MailboxUnavailableException e) {
            if (due.size() == 1) {
                return new Marks(Map.of(), Map.of(due.get(0).msgId(), e.getMessage()));
            }
            return markOneByOne(due, now, e);
        }
    }

    /**
     * Each row alone ({@link Mailbox#markProcessed}), those that failed alone last time last. If the first row tried
     * fails, the mailbox is taken as down and the others are recorded as failed without being tried; once one row
     * was answered, every row is tried.
     */
    private Marks markOneByOne(List<ProcRecord> due, Instant now, MailboxUnavailableException together) {
        var outcomes = new HashMap<Long, MarkOutcome>();
        var failures = new LinkedHashMap<Long, String>();
        String down = null;
        var failedAloneLast = Comparator.comparing((ProcRecord row) -> failedAlone.contains(row.msgId()));
        for (var row : due.stream().sorted(failedAloneLast).toList()) {
            if (down != null) {
                failures.put(row.msgId(), down);
                continue;
            }
            try {
                outcomes.put(row.msgId(), mailbox.markProcessed(row.msgId(), now));
            } catch (MailboxUnavailableException e) {
                failures.put(row.msgId(), e.getMessage());
                if (outcomes.isEmpty()) {
                    down = e.getMessage();
                }
            }
        }
        if (down != null) {
            var first = failures.keySet().iterator().next();
            failedAlone = Set.of(first);
            log.warn("backfill: the mailbox failed to mark {} messages together and message {} alone; taken as down, "
                    + "the other {} marks are recorded as failed without being tried. Cause: {}", due.size(), first,
                    due.size() - 1, down);
        } else {
            failedAlone = new HashSet<>(failures.keySet());
            log.warn("backfill: the mailbox failed to mark {} messages together ({}); marked one at a time, {} "
                    + "answered and {} failed: {}", due.size(), together.getMessage(), outcomes.size(), failures.size(),
                    failures.keySet());
        }
        return new Marks(outcomes, failures);
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

    /**
     * A transient failure: backed off, or abandoned {@code TRANSIENT_DEADLINE} once the mark's failures have lasted
     * {@code R} (this one included: a first failure starts the clock now).
     */
    private BackfillResult transientFailure(ProcRecord row, String reason, Instant now) {
        var failingSince = row.backfillFailingSince() == null ? now : row.backfillFailingSince();
        if (Duration.between(failingSince, now).compareTo(settings.backfillOverdue()) >= 0) {
            backfillMarks.backfillAbandoned(row.msgId(), "TRANSIENT_DEADLINE", now);
            log.error("ALERT backfill: mark of message {} still not written after failing since {} (R = {}); automatic "
                    + "retries stop (TRANSIENT_DEADLINE): once the mailbox answers, 'msgexchange backfill reopen {}', "
                    + "or 'msgexchange backfill reconcile {}' if the row was settled by hand. Last failure: {}",
                    row.msgId(), failingSince, settings.backfillOverdue(), row.msgId(), row.msgId(), reason);
            return new BackfillResult.TransientFailure(row.msgId(), reason, true);
        }
        int attempts = row.backfillAttempts() + 1;
        backfillMarks.backfillFailed(row.msgId(), now.plus(settings.backfillWait(attempts)), now);
        if (attempts >= settings.backfillAlertAttempts()) {
            log.warn("ALERT backfill: mark of message {} failed {} times since {} (retried until R = {} of failures): "
                    + "{}", row.msgId(), attempts, failingSince, settings.backfillOverdue(), reason);
        }
        return new BackfillResult.TransientFailure(row.msgId(), reason, false);
    }
}
