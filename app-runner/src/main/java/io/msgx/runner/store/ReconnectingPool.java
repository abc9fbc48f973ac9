package io.msgx.runner.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import javax.sql.DataSource;

/**
 * A Hikari pool that is back as soon as its database is (issue 10: resume within two poll intervals of the service's
 * return).
 *
 * <p>Left to itself, a Hikari pool that could not connect retries with a backoff that doubles up to a fixed 5 s (not
 * configurable), so after an outage of a few seconds its first new connection may come up to 5 s after the database
 * is back. This pool takes the retrying out of Hikari's hands:
 * <ol>
 *   <li>while the database answers, every {@link #getConnection()} is the Hikari pool's;</li>
 *   <li>when the pool fails to hand out a connection <em>because it could not connect</em> (Hikari's timeout carries
 *       the last connection failure as its cause), the database is taken as unreachable. A timeout without a cause
 *       is a busy pool, not an outage, and changes nothing; nor does a first connection that is slow to open (a
 *       slow logon), which is waited for up to {@link #SLOW_LOGON_PATIENCE};</li>
 *   <li>while it is unreachable, a call does not wait in Hikari: it tries one connection of its own straight through
 *       the JDBC driver (a probe, at most one every {@link #PROBE_SPACING} and one at a time; the other calls fail at
 *       once). A failed probe fails the call with the driver's reason, as an outage;</li>
 *   <li>the first probe that connects swaps in a fresh Hikari pool (its first connection is made at once, there is
 *       no backoff yet) and the call gets a connection from it. The old pool is retired: it is closed once none of its
 *       connections is in use (a lease's session, for instance, is left to end on its own), and at the latest when
 *       this pool closes.</li>
 * </ol>
 * Callers see what they saw before — a connection, or an {@link SQLException} that the adapters turn into their
 * "unavailable" exceptions — only sooner: a job's next tick after the return gets a connection.
 */
public final class ReconnectingPool implements DataSource, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReconnectingPool.class);

    /**
     * The least time between two probes of an unreachable database: at most ten connection attempts a second, and
     * well inside the default poll interval (200 ms), so a return is seen before the next-but-one intake tick.
     */
    static final Duration PROBE_SPACING = Duration.ofMillis(100);

    /**
     * How long a call waits in all for a pool's first connection while nothing has failed: a logon may take longer
     * than {@link ConnectionPools#CONNECTION_WAIT} (the pools waited 10 s before D-37) without anything being wrong.
     */
    static final Duration SLOW_LOGON_PATIENCE = Duration.ofSeconds(10);

    private final HikariConfig settings;
    private final PoolMeters meters;
    private final LongSupplier nanoTime;
    private final ReentrantLock probing = new ReentrantLock();
    private final List<HikariDataSource> retired = new ArrayList<>();
    private volatile HikariDataSource pool;
    private volatile boolean unreachable;
    private long lastProbe;
    private boolean closed;

    /** A pool on {@code settings} (copied; nothing connects yet). */
    ReconnectingPool(HikariConfig settings) {
        this(settings, System::nanoTime);
    }

    /** With a monotonic {@code nanoTime} of the caller's (tests); it spaces probes, it is no business time. */
    ReconnectingPool(HikariConfig settings, LongSupplier nanoTime) {
        this.settings = new HikariConfig();
        settings.copyStateTo(this.settings);
        this.meters = new PoolMeters(settings.getPoolName());
        this.settings.setMetricsTrackerFactory(meters); // every pool this one makes, the first and each replacement
        this.nanoTime = nanoTime;
        this.pool = new HikariDataSource(this.settings);
        this.lastProbe = nanoTime.getAsLong() - PROBE_SPACING.toNanos();
    }

    @Override
    public Connection getConnection() throws SQLException {
        if (unreachable) {
            return reconnect();
        }
        var current = pool;
        long patience = nanoTime.getAsLong() + SLOW_LOGON_PATIENCE.toNanos();
        while (true) {
            try {
                return current.getConnection();
            } catch (SQLException e) {
                if (couldNotConnect(e)) {
                    markUnreachable(current, e);
                    throw e;
                }
                if (!stillConnecting(current, e) || nanoTime.getAsLong() - patience >= 0) {
                    throw e;
                }
                // A logon slower than the wait (a busy Oracle, a TLS handshake far away): nothing failed and the pool
                // has no connection yet, so its first one is still being made. Wait for it, as for a busy pool's.
            }
        }
    }

    /**
     * Hikari's wait ran out with nothing failed and no connection in the pool: the first one is still being opened
     * (a busy pool has connections, all in use).
     */
    private static boolean stillConnecting(HikariDataSource pool, SQLException e) {
        var stats = pool.getHikariPoolMXBean();
        return e instanceof SQLTransientConnectionException && stats != null && stats.getTotalConnections() == 0;
    }

    /**
     * Show this pool's meters in {@code registry} (once): {@code hikaricp.connections.*{pool=<name>}}, read from the
     * live Hikari pool, whichever that is after a reconnect.
     */
    public void bindMeters(MeterRegistry registry) {
        meters.bind(registry, () -> pool.getHikariPoolMXBean(), settings.getMaximumPoolSize(),
                Math.max(0, settings.getMinimumIdle()));
    }

    /** True while the last attempt found the database unreachable and no probe has connected since. */
    boolean unreachable() {
        return unreachable;
    }

    /** Hikari gave up for want of a connection it could not make (not for want of a free one). */
    private static boolean couldNotConnect(SQLException e) {
        return e instanceof SQLTransientConnectionException && e.getCause() != null;
    }

    private void markUnreachable(HikariDataSource failed, SQLException e) {
        if (failed == pool && !unreachable) {
            unreachable = true;
            log.warn("{}: the database cannot be reached ({}); probing it directly until it answers", name(),
                    reason(e));
        }
    }

    private Connection reconnect() throws SQLException {
        if (!probing.tryLock()) {
            throw new SQLTransientConnectionException(name() + ": the database is unreachable (a probe is under way)",
                    "08001");
        }
        try {
            if (closed) {
                throw new SQLException(name() + " is closed");
            }
            if (unreachable) {
                long now = nanoTime.getAsLong();
                if (now - lastProbe < PROBE_SPACING.toNanos()) {
                    throw new SQLTransientConnectionException(name() + ": the database is unreachable (probed "
                            + Duration.ofNanos(now - lastProbe).toMillis() + " ms ago)", "08001");
                }
                lastProbe = now;
                probe();
                replacePool();
            }
        } finally {
            probing.unlock();
        }
        return getConnection();
    }

    /** One connection straight through the driver, closed at once; throws what the driver said. */
    private void probe() throws SQLException {
        var properties = new Properties();
        properties.putAll(settings.getDataSourceProperties());
        if (settings.getUsername() != null) {
            properties.setProperty("user", settings.getUsername());
        }
        if (settings.getPassword() != null) {
            properties.setProperty("password", settings.getPassword());
        }
        try (var connection = DriverManager.getDriver(settings.getJdbcUrl()).connect(settings.getJdbcUrl(), properties)) {
            if (connection == null) {
                throw new SQLException(name() + ": no driver accepts the configured URL");
            }
        } catch (SQLException e) {
            throw new SQLTransientConnectionException(name() + ": the database is still unreachable: " + reason(e),
                    "08001", e);
        }
    }

    private void replacePool() {
        var old = pool;
        pool = new HikariDataSource(settings);
        unreachable = false;
        synchronized (retired) {
            retired.add(old);
        }
        closeIdleRetired();
        log.info("{}: the database answers again; a fresh pool replaces the one that could not connect", name());
    }

    /** Close the retired pools none of whose connections is in use any more. */
    private void closeIdleRetired() {
        synchronized (retired) {
            retired.removeIf(old -> {
                var stats = old.getHikariPoolMXBean();
                if (stats == null || stats.getActiveConnections() == 0) {
                    old.close();
                    return true;
                }
                return false;
            });
        }
    }

    private String name() {
        return settings.getPoolName();
    }

    private static String reason(SQLException e) {
        var cause = e.getCause() instanceof SQLException sql ? sql : e;
        return cause.getMessage();
    }

    @Override
    public void close() {
        probing.lock();
        try {
            closed = true;
        } finally {
            probing.unlock();
        }
        pool.close();
        synchronized (retired) {
            retired.forEach(HikariDataSource::close);
            retired.clear();
        }
    }

    // The rest of DataSource: what the adapters never call, answered by the current pool.

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException(name() + " connects as its configured user only");
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return pool.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        pool.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        pool.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return pool.getLoginTimeout();
    }

    @Override
    public java.util.logging.Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return pool.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        return pool.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return type.isInstance(this) || pool.isWrapperFor(type);
    }
}
