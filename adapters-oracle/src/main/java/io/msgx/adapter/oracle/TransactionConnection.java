package io.msgx.adapter.oracle;

import java.sql.Connection;

/**
 * The one connection of an open transaction. It refuses once the transaction has ended, so a repository kept past
 * its work fails loudly instead of writing outside any transaction, and it remembers a failure that must undo the
 * whole transaction even if the work catches it ({@link #rollbackOnly}).
 */
final class TransactionConnection {

    private final Connection connection;
    private volatile boolean open = true;
    private volatile String rollbackOnly;

    TransactionConnection(Connection connection) {
        this.connection = connection;
    }

    Connection acquire() {
        if (!open) {
            throw new IllegalStateException("this PipelineTransaction has ended: use its repositories only inside "
                    + "the work passed to inTransaction/inLockedTransaction, or start a new transaction");
        }
        return connection;
    }

    /**
     * Oracle keeps a transaction going after a failed statement (PostgreSQL aborts it). Where the port promises
     * "both or neither", the repository marks the transaction so that it can only roll back.
     */
    void rollbackOnly(String reason) {
        if (rollbackOnly == null) {
            rollbackOnly = reason;
        }
    }

    /** Why the transaction may only roll back, or null. */
    String rollbackOnlyReason() {
        return rollbackOnly;
    }

    void end() {
        open = false;
    }
}
