package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.TransactionConnection;
import org.jooq.ConnectionProvider;

import java.sql.Connection;

/**
 * Hands jOOQ the one connection of an open transaction ({@link TransactionConnection}), which refuses once the
 * transaction has ended, so a repository kept past its work fails loudly instead of writing outside any transaction.
 */
final class TransactionConnectionProvider implements ConnectionProvider {

    private final TransactionConnection transaction;

    TransactionConnectionProvider(TransactionConnection transaction) {
        this.transaction = transaction;
    }

    @Override
    public Connection acquire() {
        return transaction.acquire();
    }

    @Override
    public void release(Connection released) {
        // The transaction owns the connection; it is closed when the transaction ends.
    }
}
