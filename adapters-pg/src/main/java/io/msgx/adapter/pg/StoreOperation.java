package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.FailureCodes;
import io.msgx.adapter.jdbc.StoreDefectException;
import io.msgx.adapter.jdbc.StoreFailures;
import org.jooq.exception.DataAccessException;

import java.sql.SQLException;
import java.util.function.Supplier;

/**
 * One of PostgreSQL's own jOOQ statements ({@link PgOutbox}) as a port operation, its failures sorted as the shared
 * statements' are ({@link StoreFailures} over PostgreSQL's codes): a lost or refused connection, or a statement that
 * did not answer in time, becomes {@link io.msgx.pipeline.store.StoreUnavailableException} naming the operation; a
 * transaction rolled back to break a deadlock or a serialization conflict becomes
 * {@link io.msgx.pipeline.store.StoreConflictException} (the caller retries either); any other SQL error is a defect,
 * {@link StoreDefectException}.
 */
final class StoreOperation {

    /** The rule over PostgreSQL's codes. */
    static final StoreFailures FAILURES = new StoreFailures(FailureCodes.POSTGRESQL);

    private StoreOperation() {
    }

    /** Run {@code call}, translating its failure into one naming {@code operation}. */
    static <T> T run(String operation, Supplier<T> call) {
        try {
            return FAILURES.run(operation, call);
        } catch (DataAccessException e) {
            if (e.getCause() instanceof SQLException cause) {
                throw new StoreDefectException(PgDialect.POSTGRESQL.database(), operation, cause);
            }
            throw e;
        }
    }
}
