package io.msgx.adapter.jdbc;

import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The JDBC stores' transaction runner on a real database (an in-memory H2): committed, rolled back on a failure and on
 * a rollback-only mark, the connection returned in auto-commit, and its own failures sorted by the store's rule.
 */
class TransactionRunnerTest {

    private static int databases;

    private final List<Connection> handedOut = new ArrayList<>();
    private String url;
    private Connection observer;
    private TransactionRunner runner;

    @BeforeEach
    void createTable() throws SQLException {
        url = "jdbc:h2:mem:runner" + ++databases + ";DB_CLOSE_DELAY=-1";
        observer = DriverManager.getConnection(url);
        try (var statement = observer.createStatement()) {
            statement.execute("CREATE TABLE FLIGHT (ID INT PRIMARY KEY)");
        }
        var h2 = new JdbcDataSource();
        h2.setURL(url);
        runner = new TransactionRunner(recording(h2), (operation, cause) -> new IllegalStateException(operation, cause),
                (operation, cause) -> new IllegalArgumentException(operation, cause));
    }

    @AfterEach
    void dropDatabase() throws SQLException {
        try (var statement = observer.createStatement()) {
            statement.execute("SHUTDOWN");
        }
        observer.close();
    }

    @Test
    void theWorkIsCommittedAndTheConnectionGoesBackInAutoCommit() throws SQLException {
        int inserted = runner.run("a transaction", tx -> insert(tx, 1) + insert(tx, 2));

        assertThat(inserted).isEqualTo(2);
        assertThat(committedIds()).containsExactly(1, 2);
        assertThat(handedOut).singleElement().satisfies(connection -> assertThat(connection.isClosed()).isTrue());
    }

    @Test
    void aFailingWorkIsRolledBackAndItsExceptionPassesUnchanged() throws SQLException {
        var defect = new IllegalArgumentException("a defect in the work");

        assertThatThrownBy(() -> runner.run("a transaction", tx -> {
            insert(tx, 1);
            throw defect;
        })).isSameAs(defect);

        assertThat(committedIds()).isEmpty();
        assertThat(handedOut).singleElement().satisfies(connection -> assertThat(connection.isClosed()).isTrue());
    }

    @Test
    void aTransactionMarkedRollbackOnlyIsRolledBackWithItsReason() throws SQLException {
        assertThatThrownBy(() -> runner.run("a locked transaction", tx -> {
            insert(tx, 1);
            tx.rollbackOnly("a batch lost a row");
            return null;
        })).isInstanceOf(IllegalStateException.class)
                .hasMessage("a locked transaction was rolled back: a batch lost a row");

        assertThat(committedIds()).isEmpty();
    }

    @Test
    void theTransactionsConnectionRefusesUseAfterTheWork() {
        var kept = new AtomicReference<TransactionConnection>();
        runner.run("a transaction", tx -> {
            kept.set(tx);
            return null;
        });

        assertThatThrownBy(() -> kept.get().acquire()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has ended");
    }

    @Test
    void aConnectionThatCannotBeOpenedIsReportedByTheStoresOpeningRule() {
        var refusing = (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    throw new SQLException("connection refused", "08001");
                });
        var failing = new TransactionRunner(refusing, (operation, cause) -> new IllegalStateException(operation, cause),
                (operation, cause) -> new IllegalArgumentException(operation, cause));

        assertThatThrownBy(() -> failing.run("a transaction", tx -> null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("opening a connection for a transaction")
                .cause().hasMessage("connection refused");
    }

    private static int insert(TransactionConnection tx, int id) throws SQLException {
        try (var statement = tx.acquire().prepareStatement("INSERT INTO FLIGHT (ID) VALUES (?)")) {
            statement.setInt(1, id);
            return statement.executeUpdate();
        }
    }

    private List<Integer> committedIds() throws SQLException {
        var ids = new ArrayList<Integer>();
        try (var statement = observer.createStatement();
             var rows = statement.executeQuery("SELECT ID FROM FLIGHT ORDER BY ID")) {
            while (rows.next()) {
                ids.add(rows.getInt(1));
            }
        }
        return ids;
    }

    /** {@code dataSource}, remembering every connection it hands out. */
    private DataSource recording(DataSource dataSource) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    var result = method.invoke(dataSource, args);
                    if (result instanceof Connection connection) {
                        handedOut.add(connection);
                    }
                    return result;
                });
    }
}
