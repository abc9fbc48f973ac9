package io.msgx.adapter.jdbc;

import java.sql.Connection;
import java.util.Objects;

/**
 * The one connection of an open transaction. It refuses once the transaction has ended, so a repository kept past
 * its work fails loudly instead of writing outside any transaction, and it remembers a failure that must undo the
 * whole transaction even if the work catches it ({@link #rollbackOnly}).
 */
public final class TransactionConnection {

    private final Connection connection;
    private volatile boolean open = true;
    private volatile String rollbackOnly;

    public TransactionConnection(Connection connection) {
        this.connection = Objects.requireNonNull(connection, "connection");
    }

    /** The transaction's connection, while it is open. */
    public Connection acquire() {
        if (!open) {
            throw new IllegalStateException("this PipelineTransaction has ended: use its repositories only inside "
                    + "the work passed to inTransaction/inLockedTransaction, or start a new transaction");
        }
        return connection;
    }

    /**
     * Oracle keeps a transaction going after a failed statement (PostgreSQL aborts it). Where the port promises
     * "both or neither", the repository marks the transaction so that it can only roll back; the first reason given
     * is kept.
     */
    public void rollbackOnly(String reason) {
        if (rollbackOnly == null) {
            rollbackOnly = reason;
        }
    }

    /** Why the transaction may only roll back, or null. */
    public String rollbackOnlyReason() {
        return rollbackOnly;
    }

    /** The transaction has ended: {@link #acquire} refuses from now on. */
    public void end() {
        open = false;
    }
}
