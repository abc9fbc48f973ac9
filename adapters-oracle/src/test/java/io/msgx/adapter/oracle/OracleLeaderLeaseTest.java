package io.msgx.adapter.oracle;

import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Logger;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The leader lease: one holder at a time between two instances (two connections), free again when the holder closes
 * it or when its session dies, and never in the way of a locked transaction.
 */
class OracleLeaderLeaseTest {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();

    @Test
    void onlyOneInstanceHoldsTheLease() {
        try (var first = new OracleLeaderLease(database.dataSource());
             var second = new OracleLeaderLease(database.dataSource())) {
            assertThat(first.tryAcquire()).isTrue();
            assertThat(first.tryAcquire()).as("held already").isTrue();

            assertThat(second.tryAcquire()).isFalse();
            assertThat(second.isHeld()).isFalse();
            assertThat(first.isHeld()).isTrue();
        }
    }

    @Test
    void aClosedLeaseIsTakenOverByTheStandby() {
        var first = new OracleLeaderLease(database.dataSource());
        var second = new OracleLeaderLease(database.dataSource());
        try {
            assertThat(first.tryAcquire()).isTrue();
            assertThat(second.tryAcquire()).isFalse();

            first.close();

            assertThat(second.tryAcquire()).isTrue();
            assertThat(first.tryAcquire()).isFalse();
        } finally {
            first.close();
            second.close();
        }
    }

    @Test
    void theLeaseIsReleasedWhenTheHoldersSessionDies() throws SQLException {
        var recording = new RecordingDataSource(database);
        try (var first = new OracleLeaderLease(recording);
             var second = new OracleLeaderLease(database.dataSource())) {
            assertThat(first.tryAcquire()).isTrue();
            assertThat(second.tryAcquire()).isFalse();

            recording.connections.get(recording.connections.size() - 1).close(); // the session ends under the lease

            assertThat(first.isHeld()).as("the holder sees it lost the lease").isFalse();
            assertThat(second.tryAcquire()).isTrue();
        }
    }

    @Test
    void leasesOfOtherNamesAndLockedTransactionsDoNotContend() {
        var clock = SettableClock.atExampleDay();
        try (var leader = new OracleLeaderLease(database.dataSource());
             var other = new OracleLeaderLease(database.dataSource(), "LEADER-B")) {
            assertThat(leader.tryAcquire()).isTrue();
            assertThat(other.tryAcquire()).isTrue();

            String entered = database.store(clock).inLockedTransaction(tx -> "entered");
            assertThat(entered).isEqualTo("entered");
        }
    }

    /** Plain, unpooled connections to the test database, each kept so the test can end its session. */
    private static final class RecordingDataSource implements DataSource {

        final List<Connection> connections = new CopyOnWriteArrayList<>();
        private final DataSource pool;

        RecordingDataSource(OracleTestDatabase database) {
            this.pool = database.dataSource();
        }

        @Override
        public Connection getConnection() throws SQLException {
            var hikari = (com.zaxxer.hikari.HikariDataSource) pool;
            var connection = DriverManager.getConnection(hikari.getJdbcUrl(), hikari.getUsername(), hikari.getPassword());
            connections.add(connection);
            return connection;
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getLogger("io.msgx.adapter.oracle");
        }

        @Override
        public <T> T unwrap(Class<T> type) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> type) {
            return false;
        }
    }
}
