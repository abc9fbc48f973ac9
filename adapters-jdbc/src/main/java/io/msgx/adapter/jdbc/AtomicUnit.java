package io.msgx.adapter.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.function.Predicate;

/**
 * A store operation of several statements that takes effect whole or not at all (an archive, a reconciliation, a
 * batch that may lose a race): inside the caller's transaction it runs under a savepoint, so undoing it leaves the
 * caller's other writes alone; on an auto-commit connection it runs in a transaction of its own. It is undone when
 * its work throws, or when its result is refused (the result is still returned: "nothing to do" is an answer).
 *
 * <p>Also here, for the adapters' own transactions: {@link #rollback} and {@link #restoreAutoCommit}, which never
 * hide the failure that made them necessary.
 */
public final class AtomicUnit {

    /** The statements of a unit, on the connection it was given. */
    @FunctionalInterface
    public interface Work<T> {
        T run() throws SQLException;
    }

    /** What becomes of a unit's savepoint when its result is kept. */
    public enum KeptSavepoint {
        /** Released at once ({@code RELEASE SAVEPOINT}, PostgreSQL). */
        RELEASED,
        /** Left to end with the caller's transaction (Oracle has no {@code RELEASE SAVEPOINT}). */
        LEFT_TO_THE_TRANSACTION
    }

    private AtomicUnit() {
    }

    /**
     * Run {@code work} as one unit on {@code connection}: under a savepoint when {@code inCallersTransaction}
     * ({@link #underSavepoint}), else in a transaction of its own ({@link #inOwnTransaction}).
     */
    public static <T> T run(Connection connection, boolean inCallersTransaction, KeptSavepoint kept, Work<T> work,
                            Predicate<? super T> keep) throws SQLException {
        return inCallersTransaction ? underSavepoint(connection, kept, work, keep)
                : inOwnTransaction(connection, work, keep);
    }

    /**
     * Run {@code work} under a savepoint of the caller's transaction on {@code connection}: rolled back to it when the
     * work throws (a failure of that rollback is added to the work's as suppressed) or when {@code keep} refuses the
     * result; else the savepoint is {@code kept}.
     */
    public static <T> T underSavepoint(Connection connection, KeptSavepoint kept, Work<T> work,
                                       Predicate<? super T> keep) throws SQLException {
        Savepoint savepoint = connection.setSavepoint();
        T result;
        try {
            result = work.run();
        } catch (SQLException | RuntimeException | Error e) {
            rollbackTo(connection, savepoint, e);
            throw e;
        }
        if (!keep.test(result)) {
            connection.rollback(savepoint);
        } else if (kept == KeptSavepoint.RELEASED) {
            connection.releaseSavepoint(savepoint);
        }
        return result;
    }

    /**
     * Run {@code work} in a transaction of its own on the auto-commit {@code connection}: committed when {@code keep}
     * accepts the result, else rolled back, and rolled back when the work (or the commit) throws; the connection is
     * in auto-commit again afterwards.
     */
    public static <T> T inOwnTransaction(Connection connection, Work<T> work, Predicate<? super T> keep)
            throws SQLException {
        connection.setAutoCommit(false);
        try {
            T result = work.run();
            if (keep.test(result)) {
                connection.commit();
            } else {
                connection.rollback();
            }
            return result;
        } catch (SQLException | RuntimeException | Error e) {
            rollback(connection, e);
            throw e;
        } finally {
            restoreAutoCommit(connection);
        }
    }

    /** Roll back the transaction on {@code connection}; a failure to is added to {@code cause} as suppressed. */
    public static void rollback(Connection connection, Throwable cause) {
        try {
            connection.rollback();
        } catch (SQLException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    /** Put {@code connection} back into auto-commit before it returns to its pool; a broken one is left as it is. */
    public static void restoreAutoCommit(Connection connection) {
        try {
            connection.setAutoCommit(true);
        } catch (SQLException ignored) {
            // A broken connection: the pool discards it on close.
        }
    }

    /** Put {@code connection} back into auto-commit and close it, returning it to its pool; nothing is thrown. */
    public static void returnToPool(Connection connection) {
        restoreAutoCommit(connection);
        try {
            connection.close();
        } catch (SQLException ignored) {
            // Nothing left to release.
        }
    }

    private static void rollbackTo(Connection connection, Savepoint savepoint, Throwable cause) {
        try {
            connection.rollback(savepoint);
        } catch (SQLException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }
}
