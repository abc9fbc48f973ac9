package io.msgx.adapter.jdbc;

import io.msgx.pipeline.store.StoreConflictException;
import io.msgx.pipeline.store.StoreUnavailableException;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The rule that sorts a store operation's failures, over one database's {@link FailureCodes}: a lost or refused
 * connection, a statement or lock wait that did not answer in time, or a database shutting down becomes
 * {@link StoreUnavailableException} naming the database and the operation; work rolled back to break a deadlock or a
 * serialization conflict becomes {@link StoreConflictException} (the caller retries either); anything else is a
 * defect, which the adapter reports its own way.
 *
 * <p>The whole failure is searched: its causes, and the exceptions chained to any of them by
 * {@link SQLException#getNextException()} (where a JDBC batch reports the row that failed).
 */
public final class StoreFailures {

    private final FailureCodes codes;

    public StoreFailures(FailureCodes codes) {
        this.codes = Objects.requireNonNull(codes, "codes");
    }

    public FailureCodes codes() {
        return codes;
    }

    /**
     * Run {@code call} as the port operation {@code operation}, translating a retryable failure ({@link #retryable})
     * into one naming it; a {@link StoreUnavailableException} and a defect propagate unchanged.
     */
    public <T> T run(String operation, Supplier<T> call) {
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
    public Optional<RuntimeException> retryable(String operation, Throwable cause) {
        if (isUnavailable(cause)) {
            return Optional.of(unavailable(operation, cause));
        }
        if (isConflict(cause)) {
            return Optional.of(new StoreConflictException(codes.database() + " rolled back " + operation + " to "
                    + "resolve a conflict with another transaction (" + rootMessage(cause) + "); nothing of it is "
                    + "committed: retry", cause));
        }
        return Optional.empty();
    }

    /** {@code cause} as the database's unavailability during {@code operation}, whatever it says. */
    public StoreUnavailableException unavailable(String operation, Throwable cause) {
        return new StoreUnavailableException(codes.database() + " unavailable during " + operation + " ("
                + rootMessage(cause) + "); nothing of it is committed unless stated otherwise: retry later", cause);
    }

    /**
     * True when the failure holds a connection failure (SQLState class {@code 08}, or the driver's connection and
     * recoverable exceptions), a timeout, or one of the database's {@link FailureCodes#unavailable} codes.
     */
    public boolean isUnavailable(Throwable failure) {
        return anyInChain(failure, t -> t instanceof SQLTransientConnectionException
                || t instanceof SQLNonTransientConnectionException || t instanceof SQLTimeoutException
                || t instanceof SQLRecoverableException
                || (t instanceof SQLException sql && (hasStateClass(sql, "08") || names(codes.unavailable(), sql))));
    }

    /** True when the failure holds one of the database's {@link FailureCodes#conflict} codes. */
    public boolean isConflict(Throwable failure) {
        return anyInChain(failure, t -> t instanceof SQLException sql && names(codes.conflict(), sql));
    }

    /**
     * True when {@code e} itself (not its causes) is a unique or primary-key violation: one of the database's
     * {@link FailureCodes#uniqueKey} SQLStates, or one of its vendor codes with a SQLState of class {@code 23}.
     */
    public boolean isUniqueViolation(SQLException e) {
        var unique = codes.uniqueKey();
        return (e.getSQLState() != null && unique.sqlStates().contains(e.getSQLState()))
                || (hasStateClass(e, "23") && codes.speaksFor(e) && unique.vendorCodes().contains(e.getErrorCode()));
    }

    /**
     * True when the failure, one of its causes or a batch row's exception chained to them is a unique or primary-key
     * violation ({@link #isUniqueViolation}): a batch's failure, or a statement's wrapped in the store's own exception.
     */
    public boolean holdsUniqueViolation(Throwable failure) {
        return anyInChain(failure, t -> t instanceof SQLException sql && isUniqueViolation(sql));
    }

    private boolean names(FailureCodes.Codes kind, SQLException e) {
        return (e.getSQLState() != null && kind.sqlStates().contains(e.getSQLState()))
                || (codes.speaksFor(e) && kind.vendorCodes().contains(e.getErrorCode()));
    }

    private static boolean hasStateClass(SQLException e, String stateClass) {
        return e.getSQLState() != null && e.getSQLState().startsWith(stateClass);
    }

    /**
     * Whether {@code failure}, its causes, or an exception chained to any of them by {@code getNextException}
     * satisfies {@code test}; each exception is looked at once, so a cycle ends the search.
     */
    private static boolean anyInChain(Throwable failure, Predicate<Throwable> test) {
        var seen = Collections.newSetFromMap(new IdentityHashMap<Throwable, Boolean>());
        var pending = new ArrayDeque<Throwable>();
        pending.add(failure);
        while (!pending.isEmpty()) {
            var t = pending.poll();
            if (!seen.add(t)) {
                continue;
            }
            if (test.test(t)) {
                return true;
            }
            if (t.getCause() != null) {
                pending.add(t.getCause());
            }
            if (t instanceof SQLException sql && sql.getNextException() != null) {
                pending.add(sql.getNextException());
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
