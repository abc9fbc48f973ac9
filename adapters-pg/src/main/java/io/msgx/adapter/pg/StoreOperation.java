package io.msgx.adapter.pg;

import io.msgx.pipeline.store.StoreConflictException;
import io.msgx.pipeline.store.StoreUnavailableException;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One port operation against PostgreSQL, and the rule that sorts its failures: a lost or refused connection, or a
 * statement that did not answer in time, becomes {@link StoreUnavailableException} naming the operation; a
 * transaction rolled back to break a deadlock or a serialization conflict becomes {@link StoreConflictException}
 * (the caller retries either); any other SQL error is a defect and propagates unchanged.
 */
final class StoreOperation {

    /**
     * SQLStates that mean "the database is not there right now" rather than "this statement is wrong": query
     * cancelled by {@code statement_timeout}, lock wait timed out, and the server shutting down or starting up.
     */
    private static final Set<String> UNAVAILABLE_STATES = Set.of("57014", "55P03", "57P01", "57P02", "57P03");

    /** SQLStates of a transaction rolled back for another's sake: serialization failure, deadlock detected. */
    private static final Set<String> CONFLICT_STATES = Set.of("40001", "40P01");

    private StoreOperation() {
    }

    /** Run {@code call}, translating a retryable failure ({@link #retryable}) into one naming {@code operation}. */
    static <T> T run(String operation, Supplier<T> call) {
        try {
            return call.get();
        } catch (StoreUnavailableException e) {
            throw e;
        } catch (RuntimeException e) {
            var retryable = retryable(operation, e);
            if (retryable.isPresent()) {
                throw retryable.get();
            }
            throw e;
        }
    }

    /**
     * The retryable failure {@code cause} is, naming {@code operation} ({@link StoreUnavailableException} or
     * {@link StoreConflictException}); empty when it is a defect.
     */
    static Optional<RuntimeException> retryable(String operation, Throwable cause) {
        if (isUnavailable(cause)) {
            return Optional.of(unavailable(operation, cause));
        }
        if (isConflict(cause)) {
            return Optional.of(new StoreConflictException("PostgreSQL rolled back " + operation + " to resolve a "
                    + "conflict with another transaction (" + rootMessage(cause) + "); nothing of it is committed: "
                    + "retry", cause));
        }
        return Optional.empty();
    }

    static StoreUnavailableException unavailable(String operation, Throwable cause) {
        return new StoreUnavailableException("PostgreSQL unavailable during " + operation + " ("
                + rootMessage(cause) + "); nothing of it is committed unless stated otherwise: retry later", cause);
    }

    /** True when the cause chain holds a connection failure (SQLState class 08) or a timeout. */
    static boolean isUnavailable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException
                    || t instanceof SQLTimeoutException || t instanceof SQLRecoverableException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null) {
                var state = sql.getSQLState();
                if (state.startsWith("08") || UNAVAILABLE_STATES.contains(state)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * True when the cause chain holds a deadlock or serialization failure ({@link #CONFLICT_STATES}), on the exception
     * itself or on one chained to it by {@code getNextException} (where a JDBC batch reports the row that failed).
     */
    static boolean isConflict(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            for (var sql = t instanceof SQLException e ? e : null; sql != null; sql = sql.getNextException()) {
                if (sql.getSQLState() != null && CONFLICT_STATES.contains(sql.getSQLState())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage();
    }
}
