package io.msgx.adapter.jdbc;

import io.msgx.adapter.jdbc.AtomicUnit.KeptSavepoint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An atomic unit on a real database (an in-memory H2): in a transaction of its own on an auto-commit connection, and
 * under a savepoint inside a caller's transaction; kept, refused, and failed.
 */
class AtomicUnitTest {

    private static int databases;

    private String url;
    private Connection connection;
    private Connection observer;

    @BeforeEach
    void createTable() throws SQLException {
        url = "jdbc:h2:mem:atomic" + ++databases + ";DB_CLOSE_DELAY=-1";
        connection = DriverManager.getConnection(url);
        observer = DriverManager.getConnection(url);
        try (var statement = connection.createStatement()) {
            statement.execute("CREATE TABLE FLIGHT (ID INT PRIMARY KEY)");
        }
    }

    @AfterEach
    void dropDatabase() throws SQLException {
        observer.close();
        try (var statement = connection.createStatement()) {
            statement.execute("SHUTDOWN");
        }
        connection.close();
    }

    // --- a transaction of its own ---

    @Test
    void aKeptUnitOfItsOwnIsCommittedAndTheConnectionIsInAutoCommitAgain() throws SQLException {
        int result = AtomicUnit.run(connection, false, KeptSavepoint.RELEASED, () -> insert(1) + insert(2), n -> true);
        assertThat(result).isEqualTo(2);
        assertThat(committedIds()).containsExactly(1, 2);
        assertThat(connection.getAutoCommit()).isTrue();
    }

    @Test
    void aRefusedUnitOfItsOwnIsRolledBackAndItsResultReturned() throws SQLException {
        int result = AtomicUnit.inOwnTransaction(connection, () -> insert(1) + insert(2), n -> false);
        assertThat(result).isEqualTo(2);
        assertThat(committedIds()).isEmpty();
        assertThat(connection.getAutoCommit()).isTrue();
    }

    @Test
    void aUnitOfItsOwnThatThrowsIsRolledBackAndTheFailurePropagates() throws SQLException {
        var failure = new IllegalStateException("the work failed");
        assertThatThrownBy(() -> AtomicUnit.inOwnTransaction(connection, () -> {
            insert(1);
            throw failure;
        }, n -> true)).isSameAs(failure);
        assertThat(committedIds()).isEmpty();
        assertThat(connection.getAutoCommit()).isTrue();
    }

    @Test
    void aUnitOfItsOwnWhoseStatementFailsIsRolledBackWhole() throws SQLException {
        assertThatThrownBy(() -> AtomicUnit.inOwnTransaction(connection, () -> insert(1) + insert(1), n -> true))
                .isInstanceOf(SQLException.class).extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("23505");
        assertThat(committedIds()).isEmpty();
        assertThat(connection.getAutoCommit()).isTrue();
    }

    // --- under a savepoint of the caller's transaction ---

    @Test
    void aKeptUnitUnderASavepointStaysInTheCallersTransaction() throws SQLException {
        connection.setAutoCommit(false);
        insert(1);
        AtomicUnit.run(connection, true, KeptSavepoint.RELEASED, () -> insert(2), n -> true);
        assertThat(committedIds()).isEmpty(); // nothing commits before the caller does
        connection.commit();
        assertThat(committedIds()).containsExactly(1, 2);
    }

    @Test
    void aRefusedUnitUnderASavepointUndoesOnlyItsOwnWrites() throws SQLException {
        connection.setAutoCommit(false);
        insert(1);
        int result = AtomicUnit.run(connection, true, KeptSavepoint.RELEASED, () -> insert(2) + insert(3), n -> false);
        assertThat(result).isEqualTo(2);
        connection.commit();
        assertThat(committedIds()).containsExactly(1);
    }

    @Test
    void aUnitUnderASavepointThatThrowsUndoesOnlyItsOwnWrites() throws SQLException {
        connection.setAutoCommit(false);
        insert(1);
        var failure = new IllegalStateException("the work failed");
        assertThatThrownBy(() -> AtomicUnit.underSavepoint(connection, KeptSavepoint.LEFT_TO_THE_TRANSACTION, () -> {
            insert(2);
            throw failure;
        }, n -> true)).isSameAs(failure);
        connection.commit();
        assertThat(committedIds()).containsExactly(1);
    }

    @Test
    void aSavepointLeftToTheTransactionIsNeverReleased() throws SQLException {
        var calls = new ArrayList<String>();
        var noRelease = withoutRelease(connection, calls);
        noRelease.setAutoCommit(false);
        AtomicUnit.run(noRelease, true, KeptSavepoint.LEFT_TO_THE_TRANSACTION, () -> insert(2), n -> true);
        noRelease.commit();
        assertThat(calls).containsExactly("setAutoCommit", "setSavepoint", "commit");
        assertThat(committedIds()).containsExactly(2);
    }

    @Test
    void aFailedRollbackToTheSavepointIsAddedToTheWorksFailure() throws SQLException {
        connection.setAutoCommit(false);
        var failure = new IllegalStateException("the work failed");
        assertThatThrownBy(() -> AtomicUnit.underSavepoint(connection, KeptSavepoint.RELEASED, () -> {
            connection.close(); // the connection is lost during the work: the rollback to the savepoint fails too
            throw failure;
        }, n -> true)).isSameAs(failure);
        assertThat(failure.getSuppressed()).hasSize(1).allMatch(SQLException.class::isInstance);
        connection = DriverManager.getConnection(url);
    }

    // --- the helpers of the adapters' transactions ---

    @Test
    void aFailedRollbackIsAddedToTheFailureThatCalledForItAndAutoCommitIsRestoredQuietly() throws SQLException {
        var closed = DriverManager.getConnection(url);
        closed.close();
        var failure = new IllegalStateException("the work failed");
        AtomicUnit.rollback(closed, failure);
        assertThat(failure.getSuppressed()).hasSize(1).allMatch(SQLException.class::isInstance);
        AtomicUnit.restoreAutoCommit(closed); // no exception: the pool discards a broken connection
    }

    private int insert(int id) throws SQLException {
        try (var statement = connection.prepareStatement("INSERT INTO FLIGHT (ID) VALUES (?)")) {
            statement.setInt(1, id);
            return statement.executeUpdate();
        }
    }

    private List<Integer> committedIds() throws SQLException {
        var ids = new ArrayList<Integer>();
        try (var rows = observer.createStatement().executeQuery("SELECT ID FROM FLIGHT ORDER BY ID")) {
            while (rows.next()) {
                ids.add(rows.getInt(1));
            }
        }
        return ids;
    }

    /** {@code connection} as a database without {@code RELEASE SAVEPOINT} (Oracle), recording the calls. */
    private static Connection withoutRelease(Connection connection, List<String> calls) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    calls.add(method.getName());
                    if (method.getName().equals("releaseSavepoint")) {
                        throw new SQLFeatureNotSupportedException("Unsupported feature: releaseSavepoint");
                    }
                    try {
                        return method.invoke(connection, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
