package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.StoreDefectException;
import io.msgx.pipeline.store.StoreConflictException;
import io.msgx.pipeline.store.StoreUnavailableException;
import org.jooq.exception.DataAccessException;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How a port operation's SQL failures are sorted: retried (an outage, a conflict) or a defect. */
class StoreOperationTest {

    private static void failWith(String sqlState) {
        StoreOperation.run("writing the projections of 3 flight(s)", () -> {
            throw new DataAccessException("SQL [...]", new SQLException("ERROR: something", sqlState));
        });
    }

    @Test
    void aDeadlockVictimIsAConflictToRetryNamingTheOperation() {
        assertThatThrownBy(() -> failWith("40P01")).isInstanceOf(StoreConflictException.class)
                .hasMessageContaining("rolled back writing the projections of 3 flight(s)")
                .hasMessageContaining("nothing of it is committed");
    }

    @Test
    void aDeadlockOfOneRowOfABatchIsAConflictToRetry() {
        var batch = new java.sql.BatchUpdateException("Batch entry 3 was aborted", null, 0, new int[0]);
        batch.setNextException(new SQLException("ERROR: deadlock detected", "40P01"));
        assertThatThrownBy(() -> StoreOperation.run("writing 4 reference entries", () -> {
            throw new DataAccessException("SQL [...]", batch);
        })).isInstanceOf(StoreConflictException.class);
    }

    @Test
    void aSerializationFailureIsAConflictToRetry() {
        assertThatThrownBy(() -> failWith("40001")).isInstanceOf(StoreConflictException.class);
    }

    @Test
    void aLostConnectionIsAnOutageNotAConflict() {
        assertThatThrownBy(() -> failWith("08006")).isInstanceOf(StoreUnavailableException.class)
                .isNotInstanceOf(StoreConflictException.class)
                .hasMessageContaining("PostgreSQL unavailable during writing the projections of 3 flight(s)");
    }

    @Test
    void anErrorWithoutSqlStateIsADefectNamingTheOperation() {
        assertThatThrownBy(() -> failWith(null)).isInstanceOf(StoreDefectException.class)
                .hasMessageContaining("PostgreSQL refused writing the projections of 3 flight(s)")
                .satisfies(e -> assertThat(e).isNotInstanceOf(StoreUnavailableException.class));
    }

    @Test
    void aConstraintViolationIsADefectCarryingItsSqlState() {
        assertThatThrownBy(() -> failWith("23505")).isInstanceOf(StoreDefectException.class)
                .satisfies(e -> assertThat(((StoreDefectException) e).sqlState()).isEqualTo("23505"))
                .satisfies(e -> assertThat(e).isNotInstanceOf(StoreUnavailableException.class));
    }
}
