package io.msgx.runner.store;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.msgx.adapter.pg.PgTestDatabase;
import io.msgx.runner.reliability.ToxicProxy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The runner's pools on the real PostgreSQL, reached through a {@link ToxicProxy} that takes it away and brings it
 * back: an unreachable database is reported as such, calls stop waiting in Hikari, and the first call after the
 * return (one probe spacing later) gets a working connection, however long the outage was.
 */
class ReconnectingPoolTest {

    /** A ticker the test moves by hand: it spaces the probes. */
    private final AtomicLong nanos = new AtomicLong();
    private final ToxicProxy proxy = ToxicProxy.inFrontOf(PgTestDatabase.URL, 5432);
    private ReconnectingPool pool;

    @AfterEach
    void close() {
        if (pool != null) {
            pool.close();
        }
        proxy.close();
    }

    @Test
    void after_an_outage_the_first_call_past_the_probe_spacing_gets_a_working_connection() throws Exception {
        pool = poolThroughProxy(3);
        assertThat(answer()).isEqualTo(1);

        goDownUntilUnreachable();
        int attemptsBefore = proxy.refused();
        nanos.addAndGet(ReconnectingPool.PROBE_SPACING.toNanos());
        assertThatThrownBy(this::answer).as("a probe while it is still away fails with the driver's reason")
                .isInstanceOf(SQLTransientConnectionException.class).hasMessageContaining("still unreachable");
        assertThatThrownBy(this::answer).as("within the probe spacing no second connection is tried")
                .isInstanceOf(SQLTransientConnectionException.class).hasMessageContaining("probed");
        assertThat(proxy.refused() - attemptsBefore).as("connection attempts while away: one per probe").isEqualTo(1);

        // A long outage: Hikari on its own would by now retry only every 5 s.
        for (int i = 0; i < 20; i++) {
            nanos.addAndGet(ReconnectingPool.PROBE_SPACING.toNanos());
            assertThatThrownBy(this::answer).isInstanceOf(SQLException.class);
        }

        proxy.comeBack();
        nanos.addAndGet(ReconnectingPool.PROBE_SPACING.toNanos());
        assertThat(answer()).as("the first call after the return is served").isEqualTo(1);
        assertThat(pool.unreachable()).isFalse();
        assertThat(answer()).as("and the fresh pool keeps serving").isEqualTo(1);
    }

    @Test
    void the_pool_meters_follow_the_fresh_pool_that_replaces_the_one_lost_to_an_outage() throws Exception {
        var registry = new SimpleMeterRegistry();
        pool = poolThroughProxy(3);
        pool.bindMeters(registry);
        try (var held = pool.getConnection()) {
            assertThat(active(registry)).as("one connection in use").isEqualTo(1);
        }
        assertThat(registry.get("hikaricp.connections.acquire").tag("pool", "test-reconnecting").timer().count())
                .as("the first pool's tracker records").isEqualTo(1);

        goDownUntilUnreachable();
        proxy.comeBack();
        nanos.addAndGet(ReconnectingPool.PROBE_SPACING.toNanos());
        try (var first = pool.getConnection(); var second = pool.getConnection()) {
            assertThat(active(registry)).as("the gauge reads the fresh pool, not the retired one").isEqualTo(2);
        }
        assertThat(active(registry)).isZero();
        assertThat(registry.get("hikaricp.connections.acquire").tag("pool", "test-reconnecting").timer().count())
                .as("the fresh pool's tracker records into the same timer").isGreaterThanOrEqualTo(3);
        assertThat(registry.get("hikaricp.connections.max").tag("pool", "test-reconnecting").gauge().value())
                .isEqualTo(3);
    }

    private static double active(SimpleMeterRegistry registry) {
        return registry.get("hikaricp.connections.active").tag("pool", "test-reconnecting").gauge().value();
    }

    @Test
    void a_pool_with_every_connection_in_use_is_busy_not_unreachable() throws Exception {
        pool = poolThroughProxy(1);
        try (Connection held = pool.getConnection()) {
            assertThat(held.isValid(2)).isTrue();
            assertThatThrownBy(() -> pool.getConnection()).as("no free connection within the wait")
                    .isInstanceOf(SQLTransientConnectionException.class);
            assertThat(pool.unreachable()).as("a busy pool is not an outage: the database answers").isFalse();
        }
        assertThat(answer()).isEqualTo(1);
    }

    @Test
    void a_first_connection_slower_than_the_wait_is_waited_for_and_not_taken_for_an_outage() throws Exception {
        var slowLogon = new PGSimpleDataSource() {
            @Override
            public Connection getConnection(String user, String password) throws SQLException {
                try {
                    Thread.sleep(ConnectionPools.CONNECTION_WAIT.toMillis() + 500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return super.getConnection(user, password);
            }
        };
        slowLogon.setUrl("jdbc:postgresql://127.0.0.1:" + proxy.port() + "/" + ToxicProxy.databaseOf(PgTestDatabase.URL));
        var hikari = settings(1);
        hikari.setJdbcUrl(null);
        hikari.setDataSource(slowLogon);
        pool = new ReconnectingPool(hikari, nanos::get);

        assertThat(answer()).as("a logon of 1.5 s against a wait of 1 s: served, not refused").isEqualTo(1);
        assertThat(pool.unreachable()).isFalse();
    }

    @Test
    void a_call_during_an_outage_does_not_wait_in_hikari() throws Exception {
        pool = poolThroughProxy(3);
        assertThat(answer()).isEqualTo(1);
        goDownUntilUnreachable();
        long start = System.nanoTime();
        for (int i = 0; i < 5; i++) {
            nanos.addAndGet(ReconnectingPool.PROBE_SPACING.toNanos());
            assertThatThrownBy(this::answer).isInstanceOf(SQLTransientConnectionException.class);
        }
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(tookMillis).as("five calls while unreachable, each one refused probe, not a wait of "
                + ConnectionPools.CONNECTION_WAIT + " each").isLessThan(ConnectionPools.CONNECTION_WAIT.toMillis());
    }

    /**
     * Take the database away and call until the pool says it is unreachable: the idle connection it hands out first
     * dies in its statement (the pool cannot know), the next call meets the outage in Hikari.
     */
    private void goDownUntilUnreachable() {
        proxy.goDown();
        for (int call = 0; call < 3 && !pool.unreachable(); call++) {
            assertThatThrownBy(this::answer).as("a call while the database is away").isInstanceOf(SQLException.class);
        }
        assertThat(pool.unreachable()).as("a pool that could not connect marks its database unreachable").isTrue();
    }

    private int answer() throws SQLException {
        try (var connection = pool.getConnection(); var statement = connection.createStatement();
             var rows = statement.executeQuery("select 1")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    private ReconnectingPool poolThroughProxy(int size) {
        return new ReconnectingPool(settings(size), nanos::get);
    }

    private com.zaxxer.hikari.HikariConfig settings(int size) {
        var hikari = new com.zaxxer.hikari.HikariConfig();
        hikari.setPoolName("test-reconnecting");
        hikari.setJdbcUrl("jdbc:postgresql://127.0.0.1:" + proxy.port() + "/" + ToxicProxy.databaseOf(PgTestDatabase.URL) + "?connectTimeout=5");
        hikari.setUsername(PgTestDatabase.USER);
        hikari.setPassword(PgTestDatabase.PASSWORD);
        hikari.setMaximumPoolSize(size);
        hikari.setMinimumIdle(0);
        hikari.setConnectionTimeout(ConnectionPools.CONNECTION_WAIT.toMillis());
        hikari.setInitializationFailTimeout(-1);
        return hikari;
    }
}
