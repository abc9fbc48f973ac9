package io.msgx.pipeline.store;

/**
 * A write refused because this instance no longer holds the leader lease (D-108): another instance took it over while
 * this one was silent (frozen, cut off), or this one's lease ran out before it could renew it. Nothing of the
 * transaction was committed. An outage as far as the loops are concerned (nothing recorded, tried again later), and
 * the instance stops its pipeline: the lease watcher sees the lease gone.
 */
public final class LeaseLostException extends StoreUnavailableException {

    public LeaseLostException(String message) {
        super(message, null);
    }
}
