package io.msgx.domain.flight;

import java.util.Objects;
import java.util.Optional;

/**
 * The full authoritative state of one flight instance: what {@code FLIGHT_SCHD} and its detail tables hold.
 *
 * <p>{@code stateVersion} goes up by exactly one with every change of the flight's content (fields, lists,
 * state, operation day) or of its derived {@code MAFL}; a flight starts at 1, or, when its FLID was archived
 * before, one above the version it had then ({@link #continuingAfter}); {@code lastMsgId} is the mailbox ID of the message
 * that made the latest change. {@code operationDay} may be null for a flight no schedule has placed yet.
 * {@code MAFL} is not part of the state: it is derived from the children ({@link MaflProjection}).
 */
public record FlightState(
        FlightId flid,
        FlightStatus status,
        long stateVersion,
        OperationDay operationDay,
        long lastMsgId,
        FlightFields fields,
        FlightLists lists) {

    public FlightState {
        Objects.requireNonNull(flid, "flid");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(fields, "fields");
        Objects.requireNonNull(lists, "lists");
        if (stateVersion < 1) {
            throw new IllegalArgumentException("STATE_VERSION starts at 1, got " + stateVersion + " for FLID " + flid);
        }
    }

    public boolean isActive() {
        return status == FlightStatus.ACTIVE;
    }

    /**
     * The master this flight is a code-share child of ({@code MAID}); empty for a master or a plain flight. A
     * {@code MAID} naming the flight itself is no link.
     */
    public Optional<FlightId> masterId() {
        var maid = fields.valueOf(FlightField.MAID);
        if (maid == null || !FlightId.isValid(maid)) {
            return Optional.empty();
        }
        var master = FlightId.of(maid);
        return master.equals(flid) ? Optional.empty() : Optional.of(master);
    }

    /** Whether this flight publishes a {@code MAFL}: only a flight whose {@code MAID} is empty does. */
    public boolean carriesMafl() {
        return fields.valueOf(FlightField.MAID) == null;
    }

    /** True when the business content differs; versions and message IDs are bookkeeping, not content. */
    public boolean sameContentAs(FlightState other) {
        return status == other.status
                && Objects.equals(operationDay, other.operationDay)
                && fields.equals(other.fields)
                && lists.equals(other.lists);
    }

    public FlightState withStatus(FlightStatus newStatus) {
        return new FlightState(flid, newStatus, stateVersion, operationDay, lastMsgId, fields, lists);
    }

    public FlightState withOperationDay(OperationDay day) {
        return new FlightState(flid, status, stateVersion, day, lastMsgId, fields, lists);
    }

    public FlightState withFields(FlightFields newFields) {
        return new FlightState(flid, status, stateVersion, operationDay, lastMsgId, newFields, lists);
    }

    public FlightState withLists(FlightLists newLists) {
        return new FlightState(flid, status, stateVersion, operationDay, lastMsgId, fields, newLists);
    }

    /**
     * This new flight's content as the first version after {@code formerVersion}, the last version the FLID had
     * before it left the current state: a FLID's version never goes back, even across its archive (D-103).
     */
    public FlightState continuingAfter(long formerVersion) {
        return new FlightState(flid, status, formerVersion + 1, operationDay, lastMsgId, fields, lists);
    }

    /** This content as the version after {@code previous}, written by message {@code msgId}. */
    public FlightState withVersionAfter(FlightState previous, long msgId) {
        return new FlightState(flid, status, previous.stateVersion + 1, operationDay, msgId, fields, lists);
    }
}
