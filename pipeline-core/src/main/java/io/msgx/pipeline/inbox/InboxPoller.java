package io.msgx.pipeline.inbox;

import io.msgx.pipeline.mailbox.MailboxRow;
import io.msgx.pipeline.mailbox.MailboxUnavailableException;
import io.msgx.pipeline.outage.OutageLog;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.port.PipelineMetrics;
import io.msgx.pipeline.port.PipelineStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Moves mailbox rows into {@code PROC_STATE}, in ID order, without ever letting a late commit be overtaken.
 *
 * <p>One round ({@link #pollOnce()}):
 * <ol>
 *   <li>read the cursor {@code (W, holeSince)}; read up to {@code claim-batch} rows with ID &gt; W. An unreadable
 *       mailbox ends the round with the watermark untouched — an outage is not "no messages";</li>
 *   <li>{@link HoleRule} decides how far the watermark moves: over the IDs consecutive from W+1; before a gap at the
 *       first missing ID while it is younger than {@code max-commit-delay} (<b>no row after it is enqueued</b>, since a
 *       smaller ID may still commit); past the gap only, once it is older. The gap's first sighting is kept in
 *       {@code INBOX_CURSOR.HOLE_SINCE}, so a restart does not reset its timer. At most one gap is resolved per
 *       round;</li>
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

        var decision = HoleRule.decide(watermark, cursor.holeSince(), rows.stream().map(MailboxRow::id).toList(), now,
                settings.maxCommitDelay());
        var taken = rows.subList(0, decision.take());
        if (!rows.isEmpty()) { // the rows taken are W+1..W+take
            metrics.watermarkLag(rows.get(rows.size() - 1).id() - (watermark + decision.take()));
        }
        return decision.match(new HoleRule.Decision.Cases<>() {
            @Override
            public PollResult advance(HoleRule.Advance advance) {
                return new PollResult.Advanced(commit(taken, advance.watermark(), null), advance.watermark());
            }

            @Override
            public PollResult holdAtHole(HoleRule.HoldAtHole hold) {
                int enqueued = commit(taken, hold.watermark(), hold.since());
                if (!hold.since().equals(cursor.holeSince())) {
                    log.info("Mailbox ID {} missing while {} is present: holding intake at watermark {} for up to {}",
                            hold.missingId(), rows.get(taken.size()).id(), hold.watermark(), settings.maxCommitDelay());
                }
                return new PollResult.HeldAtHole(enqueued, hold.watermark(), hold.missingId(), hold.since());
            }

            @Override
            public PollResult releaseHole(HoleRule.ReleaseHole release) {
                commit(taken, release.watermark(), null);
                metrics.permanentHoleReleased(release.missingId(), release.watermark());
                log.warn("Mailbox IDs {}..{} missing since {} (longer than max-commit-delay {}): taken as a permanent "
                        + "hole; watermark {} -> {}", release.missingId(), release.watermark(), release.since(),
                        settings.maxCommitDelay(), watermark, release.watermark());
                return new PollResult.HoleReleased(release.watermark(), release.missingId(), release.watermark());
            }
        });
    }

    /** Enqueue the rows and move the cursor in one transaction; returns how many rows were new. */
    private int commit(List<MailboxRow> rows, long watermark, Instant holeSince) {
        var enqueuedAt = clock.instant();
        var receivedAt = new LinkedHashMap<Long, Instant>();
        rows.forEach(row -> receivedAt.put(row.id(), row.receivedAt()));
        int inserted = store.inTransaction(tx -> {
            int count = receivedAt.isEmpty() ? 0 : tx.queue().insertAllIfAbsent(receivedAt, enqueuedAt);
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
