package io.msgx.adapter.mysql;

import com.mysql.cj.jdbc.MysqlDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * A throw-away database on the local MariaDB / MySQL ({@code 127.0.0.1:3306}, root, empty password), one per test
 * class, dropped by {@link #close()}. Override the server with {@code MSGX_TEST_MYSQL_URL} (scheme, host and port;
 * any path or options are ignored), {@code MSGX_TEST_MYSQL_USER} and {@code MSGX_TEST_MYSQL_PASSWORD}.
 */
public final class TestMailboxDatabase implements AutoCloseable {

    /** Connector/J options used against MariaDB: no TLS, bounded connect and socket waits, utf8mb4 text. */
    static final String OPTIONS = "sslMode=DISABLED&allowPublicKeyRetrieval=true&characterEncoding=UTF-8"
            + "&connectTimeout=5000&socketTimeout=30000";

    private final String serverUrl;
    private final String user;
    private final String password;
    private final String name;

    private TestMailboxDatabase(String serverUrl, String user, String password, String name) {
        this.serverUrl = serverUrl;
        this.user = user;
        this.password = password;
        this.name = name;
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
        String url = serverUrl(env("MSGX_TEST_MYSQL_URL", "jdbc:mysql://127.0.0.1:3306"));
        String user = env("MSGX_TEST_MYSQL_USER", "root");
        String password = env("MSGX_TEST_MYSQL_PASSWORD", "");
        String name = "msgx_mbx_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12).toLowerCase(Locale.ROOT);
        TestMailboxDatabase db = new TestMailboxDatabase(url, user, password, name);
        db.onServer("CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4");
        return db;
    }

    public String name() {
        return name;
    }

    /** A plain, non-pooling DataSource on this database. */
    public DataSource dataSource() {
        MysqlDataSource ds = new MysqlDataSource();
        ds.setURL(serverUrl + "/" + name + "?" + OPTIONS);
        ds.setUser(user);
        ds.setPassword(password);
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
        try (Connection c = DriverManager.getConnection(serverUrl + "/?" + OPTIONS, user, password);
             Statement st = c.createStatement()) {
            st.execute(ddl);
        } catch (SQLException e) {
            throw new IllegalStateException("test database: '" + ddl + "' failed on " + serverUrl + " as " + user
                    + ": " + e.getMessage() + ". Is MariaDB running (see shared/docs/infra.md), or set "
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

    private static String env(String key, String fallback) {
        String value = System.getenv(key);
        return value == null || value.isBlank() ? fallback : value;
    }
}
