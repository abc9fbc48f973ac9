package io.msgx.pipeline.inbox;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The hole rule: how far intake may move the watermark over the mailbox IDs read after it, so that a row committed
 * late is never overtaken (seeds §5.2; D-08). Pure: the {@link InboxPoller} reads and writes, this decides.
 *
 * <p>From the watermark {@code W}, the IDs {@code W+1, W+2, ...} that are all there are taken. When an ID is missing
 * while a later one is there, that is a gap (a hole), timed from when it was first seen: kept from the cursor while
 * the gap is still right after {@code W}, else starting now. While it is younger than {@code max-commit-delay}, the
 * watermark stops just before it and nothing after it is taken. Once it is older, it is permanent: the watermark moves
 * to just before the next row that is there (the gap and only the gap is given up) and the timer clears.
 */
public final class HoleRule {

    /** What a round does with the rows it read. */
    public sealed interface Decision {

        /** How many of the rows read (from the first) are enqueued. */
        int take();

        /** The watermark after the round. */
        long watermark();

        /**
         * What a caller does with each decision, one method per kind (D-149): a new kind adds a method here, and every
         * {@link #match} that does not say what it does with it stops compiling.
         */
        interface Cases<R> {
            R advance(Advance advance);

            R holdAtHole(HoldAtHole hold);

            R releaseHole(ReleaseHole release);
        }

        /** The answer of the case for this decision's kind. */
        <R> R match(Cases<R> cases);
    }

    /** No gap: the first {@code take} rows are enqueued and the watermark is the last of them (or stays). */
    public record Advance(int take, long watermark) implements Decision {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.advance(this);
        }
    }

    /** A young gap at {@code missingId}, seen {@code since}: the rows before it are taken, nothing after it. */
    public record HoldAtHole(int take, long watermark, long missingId, Instant since) implements Decision {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.holdAtHole(this);
        }
    }

    /**
     * A gap seen {@code since} aged out: the rows before it are taken and the watermark moves to {@code watermark},
     * just before the next row there, giving up {@code missingId..watermark}.
     */
    public record ReleaseHole(int take, long watermark, long missingId, Instant since) implements Decision {
        @Override
        public <R> R match(Cases<R> cases) {
            return cases.releaseHole(this);
        }
    }

    private HoleRule() {
    }

    /**
     * Decide one round.
     *
     * @param watermark      the cursor's watermark {@code W}
     * @param holeSince      when the cursor saw the gap after {@code W} first, or null when it saw none
     * @param idsRead        the IDs read after {@code W}, ascending
     * @param now            the round's time
     * @param maxCommitDelay how long a gap may be a late commit before it is taken as permanent
     */
    public static Decision decide(long watermark, Instant holeSince, List<Long> idsRead, Instant now,
                                  Duration maxCommitDelay) {
        Objects.requireNonNull(idsRead, "idsRead");
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(maxCommitDelay, "maxCommitDelay");
        int take = 0;
        long expected = watermark + 1;
        while (take < idsRead.size() && idsRead.get(take) == expected) {
            take++;
            expected++;
        }
        long contiguousEnd = expected - 1;
        if (take == idsRead.size()) {
            return new Advance(take, contiguousEnd);
        }
        long missingId = expected;
        // The gap right after W is the one the cursor timed; rows taken before it put the gap at a new place.
        var since = take == 0 && holeSince != null ? holeSince : now;
        if (Duration.between(since, now).compareTo(maxCommitDelay) >= 0) {
            return new ReleaseHole(take, idsRead.get(take) - 1, missingId, since);
        }
        return new HoldAtHole(take, contiguousEnd, missingId, since);
    }
}
