package io.msgx.pipeline.port;

import io.msgx.pipeline.record.ErrorClass;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/** Operators' replay of failed, dead and unknown-flight messages: back to {@code PENDING}, identity kept. */
public interface MessageReplays {

    /**
     * The reason of a {@code FLOP} that arrived before its flight ({@code SKIPPED}, D-02): the one skip an operator may
     * replay, once the flight exists (D-87).
     */
    String UNKNOWN_FLIGHT = "no-match:unknown-flight";

    /**
     * In the outcome of a batch that ended {@code SUCCEEDED} (several {@code FLOP} bodies, D-118), what comes before the
     * FLIDs of the bodies whose flight did not exist: {@code applied: 1 flight(s) changed; no-match:unknown-flight 1002}.
     * Such a message is replayable too, and its replay applies only those bodies.
     */
    String UNKNOWN_FLIGHTS_OF_A_BATCH = "; " + UNKNOWN_FLIGHT + " ";

    /**
     * Replay, one statement: the rows among {@code msgIds} that are {@code FAILED} or {@code DEAD} with an
     * error class in {@code replayable}, those {@code SKIPPED} as {@value #UNKNOWN_FLIGHT} (D-87), and those
     * {@code SUCCEEDED} with {@link #UNKNOWN_FLIGHTS_OF_A_BATCH} in their outcome (D-118), go back to
     * {@code PENDING}; attempts, next attempt and error class are reset, and so is the text except for the last kind,
     * whose outcome tells the replay which bodies it owes; and so is the start of the mark's
     * failures ({@code BACKFILL_FAILING_SINCE}, D-104: the mark owed when it ends again has a deadline of its own);
     * {@code IDENTITY_KEY} and the other backfill columns are kept. Returns the IDs replayed.
     */
    List<Long> replay(Collection<Long> msgIds, Set<ErrorClass> replayable, Instant now);
}
