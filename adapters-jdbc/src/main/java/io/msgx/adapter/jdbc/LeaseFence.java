package io.msgx.adapter.jdbc;

import io.msgx.pipeline.store.LeaseLostException;

import java.sql.SQLException;

/**
 * What every write transaction of the active instance runs first (D-108): proof, inside that transaction, that the
 * instance still holds the leader lease, by a lock on the lease row that a take-over must wait for. An instance that
 * lost the lease while it was silent commits nothing.
 */
@FunctionalInterface
public interface LeaseFence {

    /** No fence: a process that is no pipeline instance (the CLI) or a store used alone. */
    LeaseFence NONE = session -> { };

    /**
     * Prove the lease in the transaction of {@code session}, holding the lease row's lock until it ends.
     *
     * @throws LeaseLostException when this instance does not hold the lease (any more)
     */
    void prove(StoreJdbc.Session session) throws SQLException;
}
