package io.msgx.pipeline.delivery;

import java.util.Objects;

/** What the sink says about one event. */
public sealed interface DeliveryOutcome {

    /** The broker acknowledged the record. */
    record Delivered() implements DeliveryOutcome {
    }

    /**
     * The record was not acknowledged (refused, timed out, never sent); the reason says which.
     *
     * <p>{@code outage} tells whose fault it was, which decides whether the failure uses one of the event's delivery
     * attempts (D-66): true when the broker could not be reached or did not answer in time (a timeout, a retriable
     * error such as a lost connection or too few in-sync replicas, the sink failing as a whole) — nothing about this
     * record was judged, so it waits for the broker and uses no attempt, however long the outage lasts; false when
     * the broker or the producer refused <em>this</em> record (too large, not authorised, not serialisable, an
     * invalid topic), which sending it again will not change: that counts toward {@code DEAD}.
     */
    record Failed(String reason, boolean outage) implements DeliveryOutcome {
        public Failed {
            Objects.requireNonNull(reason, "reason");
        }
    }

    static DeliveryOutcome delivered() {
        return new Delivered();
    }

    /** The broker is away (or too slow): the record was not judged, no attempt is used. */
    static Failed unreachable(String reason) {
        return new Failed(reason, true);
    }

    /** This record was refused: the failure counts toward {@code DEAD}. */
    static Failed refused(String reason) {
        return new Failed(reason, false);
    }
}
