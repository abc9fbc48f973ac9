package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.EpochLeaseContract;
import io.msgx.adapter.jdbc.JdbcEpochLease;
import io.msgx.adapter.jdbc.JdbcPipelineStore;
import io.msgx.adapter.jdbc.SqlDialect;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The leader lease's contract on PostgreSQL, each test in a fresh schema, plus what PostgreSQL adds: a holder frozen
 * inside a transaction that keeps the lease row's shared lock is cut off by the server's
 * {@code idle_in_transaction_session_timeout}, so the take-over waits for it no longer than that.
 */
class PgEpochLeaseTest extends EpochLeaseContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();

    @Override
    protected DataSource dataSource() {
        return database.dataSource();
    }

    @Override
    protected SqlDialect dialect() {
        return PgDialect.POSTGRESQL;
    }

    @Override
    protected JdbcPipelineStore<?> store() {
        return (JdbcPipelineStore<?>) database.store(SettableClock.atExampleDay());
    }

    @Test
    void aTransactionFrozenWithTheLeaseRowLockedIsCutOffByTheServerAndTheTakeOverGoesOn() throws Exception {
        var frozen = new JdbcEpochLease(dataSource(), dialect(), new JdbcEpochLease.Settings("LEADER", "frozen",
                Duration.ofSeconds(1), Duration.ofSeconds(1)), System::nanoTime);
        assertThat(frozen.tryAcquire()).isTrue();
        var taker = new JdbcEpochLease(dataSource(), dialect(), new JdbcEpochLease.Settings("LEADER", "taker",
                Duration.ofSeconds(30), Duration.ofSeconds(1)), System::nanoTime);
        try (var connection = dataSource().getConnection(); var statement = connection.createStatement()) {
            statement.execute("SET idle_in_transaction_session_timeout = 3000");
            connection.setAutoCommit(false);
            statement.executeQuery("SELECT EPOCH FROM LEADER_LEASE WHERE NAME = 'LEADER' FOR SHARE").close();
            // the holder's JVM stops here, its transaction open: nothing more is sent on this connection
            Thread.sleep(1200);
            assertThat(taker.tryAcquire()).as("expired, but the frozen transaction holds the row (1 s wait)").isFalse();
            Thread.sleep(1200); // past the 3 s the server allows a transaction to sit idle
            assertThat(taker.tryAcquire()).as("the server ended the frozen transaction").isTrue();
            assertThat(taker.epoch()).isEqualTo(2);
        } catch (java.sql.SQLException ended) {
            // the connection the server closed, as the thawed holder finds it: nothing of it was committed
        } finally {
            taker.close();
        }
        assertThat(taker.row()).hasValueSatisfying(row -> assertThat(row.epoch()).isEqualTo(2));
    }
}
