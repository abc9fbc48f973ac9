package io.msgx.runner.http;

import io.msgx.pipeline.port.PipelineStore;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Intake is not stuck: the gap at {@code watermark + 1} ({@code INBOX_CURSOR.HOLE_SINCE}) is not older than a
 * budget. The poller gives a gap up after {@code msgx.pipeline.max-commit-delay}; a gap older than that plus a
 * margin means the poller is not running, or cannot save the cursor. No gap is UP; a cursor that cannot be read
 * is DOWN too ({@link ReadCheck#store} tells more).
 */
public final class WatermarkCheck implements ReadinessCheck {

    public static final String NAME = "watermark";

    private final PipelineStore store;
    private final Clock clock;
    private final Duration budget;

    /** @param budget the oldest a gap may be before intake counts as stuck; positive */
    public WatermarkCheck(PipelineStore store, Clock clock, Duration budget) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.budget = Objects.requireNonNull(budget, "budget");
        if (budget.isNegative() || budget.isZero()) {
            throw new IllegalArgumentException("the watermark budget must be positive, got " + budget);
        }
    }

    /** The budget as {@code maxCommitDelay + margin}: the poller's own limit plus time for a slow poll round. */
    public static WatermarkCheck forMaxCommitDelay(PipelineStore store, Clock clock, Duration maxCommitDelay,
                                                   Duration margin) {
        return new WatermarkCheck(store, clock, maxCommitDelay.plus(margin));
    }

    @Override
    public String name() {
        return NAME;
    }

    public Duration budget() {
        return budget;
    }

    @Override
    public Result check() {
        var cursor = store.inboxCursor().load();
        if (cursor.holeSince() == null) {
            return Result.up();
        }
        var age = Duration.between(cursor.holeSince(), clock.instant());
        if (age.compareTo(budget) <= 0) {
            return Result.up();
        }
        return Result.down("intake is stuck: mailbox ID " + (cursor.watermark() + 1) + " has been missing since "
                + cursor.holeSince() + " (" + age.toSeconds() + " s, budget " + budget.toSeconds()
                + " s); the poller should have given it up after msgx.pipeline.max-commit-delay. Check that the"
                + " inbox poller job runs and can write INBOX_CURSOR (its log lines come from InboxPoller)");
    }
}
