package io.msgx.adapter.pg;

import org.jooq.ConnectionProvider;

import java.sql.Connection;

/**
 * Hands jOOQ the one connection of an open transaction, and refuses once the transaction has ended, so a
 * repository kept past its work fails loudly instead of writing outside any transaction.
 */
final class TransactionConnection implements ConnectionProvider {

    private final Connection connection;
    private volatile boolean open = true;

    TransactionConnection(Connection connection) {
        this.connection = connection;
    }

    @Override
    public Connection acquire() {
        if (!open) {
            throw new IllegalStateException("this PipelineTransaction has ended: use its repositories only inside "
                    + "the work passed to inTransaction/inLockedTransaction, or start a new transaction");
        }
        return connection;
    }

    @Override
    public void release(Connection released) {
        // The transaction owns the connection; it is closed when the transaction ends.
    }

    void end() {
        open = false;
    }
}
