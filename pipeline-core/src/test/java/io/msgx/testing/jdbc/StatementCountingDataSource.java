package io.msgx.testing.jdbc;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A data source that counts the statements prepared on its connections: one per round trip (a batch counts once).
 * Shared by the store adapters' round-trip tests. It travels in pipeline-core's test-jar, but outside
 * {@code io.msgx.pipeline..}: that package knows no JDBC, and app-runner's architecture test (which also reads the
 * test-jar) holds it to that.
 */
public final class StatementCountingDataSource implements DataSource {

    private static final Set<String> STATEMENT_FACTORIES = Set.of("prepareStatement", "createStatement", "prepareCall");

    private final DataSource delegate;
    private final AtomicInteger statements = new AtomicInteger();

    public StatementCountingDataSource(DataSource delegate) {
        this.delegate = delegate;
    }

    /** Statements prepared since the last reset. */
    public int statements() {
        return statements.get();
    }

    public void reset() {
        statements.set(0);
    }

    @Override
    public Connection getConnection() throws SQLException {
        return counting(delegate.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return counting(delegate.getConnection(username, password));
    }

    private Connection counting(Connection connection) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[]{Connection.class},
                (proxy, method, args) -> {
                    if (STATEMENT_FACTORIES.contains(method.getName())) {
                        statements.incrementAndGet();
                    }
                    try {
                        return method.invoke(connection, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return delegate.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        delegate.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        delegate.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return delegate.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() {
        return Logger.getLogger("io.msgx.testing.jdbc");
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return delegate.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return delegate.isWrapperFor(type);
    }
}
