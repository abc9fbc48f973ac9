package io.msgx.pipeline.store;

/**
 * Our database rolled back the work to break a deadlock or a serialization conflict with another transaction
 * (PostgreSQL {@code 40P01}/{@code 40001}, Oracle {@code ORA-00060}/{@code ORA-08177}). Nothing of it is committed
 * and the same work succeeds when tried again: retried at once, like an outage, but not reported as one — the
 * database is there, it chose this transaction as the victim.
 */
public class StoreConflictException extends StoreUnavailableException {

    public StoreConflictException(String message, Throwable cause) {
        super(message, cause);
    }
}
