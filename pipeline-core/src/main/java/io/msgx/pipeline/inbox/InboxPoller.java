package io.msgx.pipeline.inbox;

import io.msgx.pipeline.mailbox.Mailbox;
import io.msgx.pipeline.mailbox.MailboxRow;
import io.msgx.pipeline.mailbox.MailboxUnavailableException;
import io.msgx.pipeline.metrics.PipelineMetrics;
import io.msgx.pipeline.outage.OutageLog;
import io.msgx.pipeline.store.PipelineStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Moves mailbox rows into {@code PROC_STATE}, in ID order, without ever letting a late commit be overtaken.
 *
 * <p>One round ({@link #pollOnce()}):
 * <ol>
 *   <li>read the cursor {@code (W, holeSince)}; read up to {@code claim-batch} rows with ID &gt; W. An unreadable
 *       mailbox ends the round with the watermark untouched — an outage is not "no messages";</li>
 *   <li>count from W+1 while the IDs are consecutive: that run is the contiguous upper bound;</li>
 *   <li>if a row stands after a missing ID, there is a gap at the first missing ID. It is timed from when it was
 *       first seen (kept in {@code INBOX_CURSOR.HOLE_SINCE}, so a restart does not reset it; a gap at a new
 *       position starts a new timer). While it is younger than {@code max-commit-delay} the watermark stops
 *       before it and <b>no row after it is enqueued</b>, since a smaller ID may still commit. Once it is older,
 *       it is permanent: the watermark moves to just before the next existing row — skipping the gap, never a
 *       row — and the timer clears. At most one gap is resolved per round;</li>
 *   <li>in one transaction, enqueue the contiguous rows ({@code insertIfAbsent}: a row already there is fine)
 *       and write the new {@code (W, holeSince)}.</li>
 * </ol>
 * The cost: every gap stalls intake of everything after it for up to {@code max-commit-delay}.
 */
public final class InboxPoller {

    private static final Logger log = LoggerFactory.getLogger(InboxPoller.class);

    private final Mailbox mailbox;
    private final PipelineStore store;
    private final Clock clock;
    private final InboxSettings settings;
    private final PipelineMetrics metrics;
    private final OutageLog mailboxOutage;

    public InboxPoller(Mailbox mailbox, PipelineStore store, Clock clock, InboxSettings settings, PipelineMetrics metrics) {
        this.mailbox = mailbox;
        this.store = store;
        this.clock = clock;
        this.settings = settings;
        this.metrics = metrics;
        this.mailboxOutage = new OutageLog(log, "Mailbox", clock);
    }

    public PollResult pollOnce() {
        var cursor = store.inboxCursor().load();
        var watermark = cursor.watermark();
        List<MailboxRow> rows;
        try {
            rows = mailbox.readAfter(watermark, settings.claimBatch());
        } catch (MailboxUnavailableException e) {
            mailboxOutage.failed(e.getMessage(), "watermark stays at " + watermark + " and intake retries");
            return new PollResult.MailboxUnavailable(e.getMessage());
        }
        mailboxOutage.recovered();
        var now = clock.instant();

        var contiguous = new ArrayList<MailboxRow>();
        long expected = watermark + 1;
        for (var row : rows) {
            if (row.id() != expected) {
                break;
            }
            contiguous.add(row);
            expected++;
        }
        var firstAfterGap = rows.size() > contiguous.size() ? rows.get(contiguous.size()) : null;
        if (!rows.isEmpty()) {
            metrics.watermarkLag(rows.get(rows.size() - 1).id() - (expected - 1));
        }

        if (firstAfterGap == null) {
            return new PollResult.Advanced(commit(contiguous, expected - 1, null), expected - 1);
        }

        long missingId = expected;
        Instant holeSince = contiguous.isEmpty() && cursor.holeSince() != null ? cursor.holeSince() : now;
        if (Duration.between(holeSince, now).compareTo(settings.maxCommitDelay()) >= 0) {
            long released = firstAfterGap.id() - 1;
            commit(contiguous, released, null);
            metrics.permanentHoleReleased(missingId, released);
            log.warn("Mailbox IDs {}..{} missing since {} (longer than max-commit-delay {}): taken as a permanent hole; "
                    + "watermark {} -> {}", missingId, released, holeSince, settings.maxCommitDelay(), watermark, released);
            return new PollResult.HoleReleased(released, missingId, released);
        }
        int enqueued = commit(contiguous, missingId - 1, holeSince);
        if (!holeSince.equals(cursor.holeSince())) {
            log.info("Mailbox ID {} missing while {} is present: holding intake at watermark {} for up to {}",
                    missingId, firstAfterGap.id(), missingId - 1, settings.maxCommitDelay());
        }
        return new PollResult.HeldAtHole(enqueued, missingId - 1, missingId, holeSince);
    }

    /** Enqueue the rows and move the cursor in one transaction; returns how many rows were new. */
    private int commit(List<MailboxRow> rows, long watermark, Instant holeSince) {
        var enqueuedAt = clock.instant();
        var receivedAt = new LinkedHashMap<Long, Instant>();
        rows.forEach(row -> receivedAt.put(row.id(), row.receivedAt()));
        int inserted = store.inTransaction(tx -> {
            int count = receivedAt.isEmpty() ? 0 : tx.procStates().insertAllIfAbsent(receivedAt, enqueuedAt);
            tx.inboxCursor().save(watermark, holeSince);
            return count;
        });
        if (inserted > 0) {
            metrics.enqueued(inserted);
            log.debug("Enqueued {} mailbox rows; watermark {}", inserted, watermark);
        }
        return inserted;
    }
}
