package io.msgx.adapter.oracle;

import io.msgx.pipeline.store.OutboxContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * The outbox contract on Oracle (H2 in Oracle mode by default, see {@link OracleTestDatabase}), each test in a fresh
 * schema; and which index a projection's confirmation is found through.
 */
class OracleOutboxTest extends OutboxContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();

    /**
     * A projection's confirmation names its row by the column of the projections' unique index: named by
     * {@code TARGET} and {@code PARTITION_KEY}, which no index leads with, each confirmation of a batch walked every
     * pending projection. Read from H2's plan (no Oracle runs here: an Oracle optimizer may still choose otherwise,
     * but only a statement on {@code SCHD_KEY} gives it the unique index to choose).
     */
    @Test
    void aProjectionIsConfirmedThroughTheUniqueIndexOfProjections() throws SQLException {
        assumeFalse(database.isRealOracle(), "reads H2's EXPLAIN");
        try (var connection = database.dataSource().getConnection();
             var explain = connection.prepareStatement("EXPLAIN "
                     + ((OracleOutbox) database.store(clock).notifications()).projectionConfirmation())) {
            explain.setObject(1, java.sql.Timestamp.from(clock.instant()));
            explain.setString(2, "1000");
            explain.setLong(3, 1);
            try (var plan = explain.executeQuery()) {
                assertThat(plan.next()).isTrue();
                assertThat(plan.getString(1)).containsIgnoringCase("UX_MSG_EVENT_SCHD");
            }
        }
    }
}
