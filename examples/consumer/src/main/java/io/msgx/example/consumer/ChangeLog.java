package io.msgx.example.consumer;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the {@code msg} topic said last about each flight, and how the notifications arrived.
 *
 * <p>The same dedup rule as for states ("Ordering, repeats and deduplication" in docs/consumers.md), per {@code FLID}:
 * a notification whose {@code stateVersion} is not higher than the last one applied for that flight is a repeat (a
 * crash, a take-over or an operator's resend sent it again) or a stale one (a dead notification resent late): it is
 * counted and not applied, so no change is acted on twice.
 *
 * <p>Versions go up by one per change, and every change has its notification. A version higher by more than one means
 * notifications were missed, or are still to come (and will then be dropped as stale): the contract's advice is to
 * read the flight from {@code schd}, which the {@link FlightBoard} beside this log does anyway. It is counted as a gap.
 * The first notification of a flight after the start has nothing to be compared with: the board, built from
 * {@code schd}, already holds what the notifications before it said.
 */
public final class ChangeLog {

    /**
     * One applied notification (docs/consumers.md, "msg: a change of one flight"): the flight, the version the change
     * made, {@code UPSERT} or {@code DELETE}, the codes of the scalars and lists that changed, and why ({@code AODB} or
     * {@code RETENTION}; null when the value has no {@code cause}).
     */
    public record Change(String flid, long stateVersion, String change, List<String> changed, String cause) {
        public Change {
            changed = List.copyOf(changed);
        }
    }

    /** What a notification did. */
    public enum Outcome {
        APPLIED,
        /** Applied, but versions between it and the last applied one never came (yet). */
        APPLIED_AFTER_GAP,
        /** Not higher than the last applied one: a repeat or a stale notification; not applied. */
        DROPPED
    }

    private final Map<String, Change> last = new HashMap<>();
    private long applied;
    private long repeatsDropped;
    private long gaps;

    /** Applies the notification by the dedup rule. */
    public Outcome apply(Change change) {
        var previous = last.get(change.flid());
        if (previous != null && change.stateVersion() <= previous.stateVersion()) {
            repeatsDropped++;
            return Outcome.DROPPED;
        }
        last.put(change.flid(), change);
        applied++;
        if (previous != null && change.stateVersion() > previous.stateVersion() + 1) {
            gaps++;
            return Outcome.APPLIED_AFTER_GAP;
        }
        return Outcome.APPLIED;
    }

    /** The last notification applied for {@code flid}. */
    public Optional<Change> last(String flid) {
        return Optional.ofNullable(last.get(flid));
    }

    /** Notifications applied. */
    public long applied() {
        return applied;
    }

    /** Notifications not applied because their version was not higher: repeats and stale ones. */
    public long repeatsDropped() {
        return repeatsDropped;
    }

    /** Notifications applied whose version was higher by more than one than the last applied for their flight. */
    public long gaps() {
        return gaps;
    }
}
