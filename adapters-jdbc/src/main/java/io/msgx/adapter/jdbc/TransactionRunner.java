package io.msgx.adapter.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;

import static io.msgx.adapter.jdbc.AtomicUnit.returnToPool;
import static io.msgx.adapter.jdbc.AtomicUnit.rollback;

/**
 * Runs one business transaction of a JDBC store on a pooled connection of its own: auto-commit off, the work, then
 * commit; rolled back when the work throws, or when it marked the transaction rollback-only
 * ({@link TransactionConnection#rollbackOnly}); the connection goes back to its pool in auto-commit whatever happened.
 * The transaction's {@link TransactionConnection} ends before the commit, so a repository kept past the work fails
 * loudly instead of writing outside any transaction. A JDBC failure of the runner's own steps is the store's to name
 * ({@link Failure}): one rule for opening a connection, one for starting and committing; the work's own exceptions
 * pass unchanged.
 */
public final class TransactionRunner {

    /** The statements of one transaction, on its connection. */
    @FunctionalInterface
    public interface Work<T> {
        T run(TransactionConnection transaction) throws SQLException;
    }

    /** The store's exception for a failed step ({@code operation}): {@link StoreFailures#retryable} or a defect. */
    @FunctionalInterface
    public interface Failure {
        RuntimeException of(String operation, SQLException cause);
    }

    private final DataSource dataSource;
    private final Failure opening;
    private final Failure failure;

    /**
     * A runner on {@code dataSource}: {@code opening} names a failure to get a connection, {@code failure} a failure to
     * start or commit the transaction.
     */
    public TransactionRunner(DataSource dataSource, Failure opening, Failure failure) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.opening = Objects.requireNonNull(opening, "opening");
        this.failure = Objects.requireNonNull(failure, "failure");
    }

    /** Run {@code work} as one transaction, {@code kind} naming it in failures ("a locked transaction"). */
    public <T> T run(String kind, Work<T> work) {
        Objects.requireNonNull(work, "work");
        Connection connection = open(kind);
        var transaction = new TransactionConnection(connection);
        try {
            T result;
            try {
                connection.setAutoCommit(false);
                result = work.run(transaction);
            } catch (RuntimeException | Error e) {
                transaction.end();
                rollback(connection, e);
                throw e;
            } catch (SQLException e) {
                transaction.end();
                rollback(connection, e);
                throw failure.of("starting " + kind, e);
            }
            transaction.end();
            var refused = transaction.rollbackOnlyReason();
            if (refused != null) {
                var rolledBack = new IllegalStateException(kind + " was rolled back: " + refused);
                rollback(connection, rolledBack);
                throw rolledBack;
            }
            try {
                connection.commit();
            } catch (SQLException e) {
                rollback(connection, e);
                throw failure.of("committing " + kind + " (its outcome is unknown if the connection was lost)", e);
            }
            return result;
        } finally {
            returnToPool(connection);
        }
    }

    private Connection open(String kind) {
        try {
            return dataSource.getConnection();
        } catch (SQLException e) {
            throw opening.of("opening a connection for " + kind, e);
        }
    }
}
