package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.FailureCodes;
import io.msgx.adapter.jdbc.StoreFailures;

import java.util.function.Supplier;

/**
 * One port operation against PostgreSQL, and the rule that sorts its failures ({@link StoreFailures} over PostgreSQL's
 * codes): a lost or refused connection, or a statement that did not answer in time, becomes
 * {@link io.msgx.pipeline.store.StoreUnavailableException} naming the operation; a transaction rolled back to break a
 * deadlock or a serialization conflict becomes {@link io.msgx.pipeline.store.StoreConflictException} (the caller
 * retries either); any other SQL error is a defect and propagates unchanged.
 */
final class StoreOperation {

    /** The rule over PostgreSQL's codes. */
    static final StoreFailures FAILURES = new StoreFailures(FailureCodes.POSTGRESQL);

    private StoreOperation() {
    }

    /** Run {@code call}, translating a retryable failure into one naming {@code operation}. */
    static <T> T run(String operation, Supplier<T> call) {
        return FAILURES.run(operation, call);
    }
}
