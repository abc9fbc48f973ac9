package io.msgx.runner.security;

import io.msgx.adapter.mysql.MailboxDdl;
import io.msgx.adapter.mysql.MailboxSchema;
import io.msgx.adapter.mysql.TestMailboxDatabase;
import io.msgx.adapter.pg.PgTestDatabase;
import io.msgx.runner.config.Keys;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The database users a site gives msgexchange, created with exactly the grants docs/operations.md ("Database users
 * and grants") lists, each with its own distinctive password, and dropped afterwards:
 * <ul>
 *   <li>PostgreSQL: an <b>owner</b> role that owns the store's schema and runs {@code migrate}, and a <b>runtime</b>
 *       role for {@code run} and the operator commands, with data rights only (it cannot create, alter or drop
 *       anything, nor rewrite the migration history);</li>
 *   <li>MariaDB: a <b>mailbox</b> user that may read {@code CMINMSGS}, set its processing mark and nothing else
 *       there, and write (and find again) its own requests in {@code COUTMSGS};
 *       {@link #grantCompatibilityEntry()} adds the one right the compatibility entry needs on top.</li>
 * </ul>
 * The statements are built by {@link #postgresGrants} and {@link #mailboxGrants} so that what is tested is what is
 * documented. Everything is created by the local admin users (postgres, root) in a fresh schema and a fresh mailbox
 * database, and dropped by {@link #close()}.
 */
final class LeastPrivilegeUsers implements AutoCloseable {

    private final String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    final String schema = "msgx_lp_" + suffix;
    final String owner = "msgx_owner_" + suffix;
    final String ownerPassword = "PgOwnerPw-" + UUID.randomUUID();
    final String runtime = "msgx_app_" + suffix;
    final String runtimePassword = "PgAppPw-" + UUID.randomUUID();
    final String mailboxUser = "msgx_mbx_" + suffix;
    final String mailboxPassword = "MbxPw-" + UUID.randomUUID();
    private final TestMailboxDatabase mailbox;

    private LeastPrivilegeUsers() {
        mailbox = TestMailboxDatabase.create();
    }

    /** A fresh mailbox database with the sis-format tables, an empty schema owned by the owner role, all three users. */
    static LeastPrivilegeUsers create() throws SQLException {
        var users = new LeastPrivilegeUsers();
        try {
            try (var aodb = users.aodb()) {
                new MailboxDdl(MailboxSchema.defaults()).createTables(aodb);
                run(aodb, mailboxGrants(users.mailbox.name(), users.mailboxUser, users.mailboxPassword));
            }
            try (var admin = users.postgresAdmin()) {
                run(admin, postgresGrants(users.schema, users.owner, users.ownerPassword, users.runtime,
                        users.runtimePassword));
            }
            return users;
        } catch (SQLException | RuntimeException e) {
            users.close();
            throw e;
        }
    }

    /**
     * What a PostgreSQL admin runs once, before the first {@code migrate}: two login roles, the schema owned by
     * the owner, and default privileges so that every table and sequence the owner's migrations create is usable
     * (data only) by the runtime role.
     */
    static List<String> postgresGrants(String schema, String owner, String ownerPassword, String runtime,
                                       String runtimePassword) {
        return List.of(
                "CREATE ROLE " + owner + " LOGIN PASSWORD '" + ownerPassword + "'",
                "CREATE ROLE " + runtime + " LOGIN PASSWORD '" + runtimePassword + "'",
                "CREATE SCHEMA " + schema + " AUTHORIZATION " + owner,
                "GRANT USAGE ON SCHEMA " + schema + " TO " + runtime,
                "ALTER DEFAULT PRIVILEGES FOR ROLE " + owner + " IN SCHEMA " + schema
                        + " GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO " + runtime,
                "ALTER DEFAULT PRIVILEGES FOR ROLE " + owner + " IN SCHEMA " + schema
                        + " GRANT USAGE, SELECT ON SEQUENCES TO " + runtime);
    }

    /** After the first {@code migrate}: the runtime role reads the migration history but cannot rewrite it. */
    static List<String> postgresAfterFirstMigration(String schema, String runtime) {
        return List.of("REVOKE INSERT, UPDATE, DELETE ON " + schema + ".flyway_schema_history FROM " + runtime);
    }

    /** What a MariaDB admin runs for the mailbox user of a runner without the compatibility entry. */
    static List<String> mailboxGrants(String database, String user, String password) {
        var who = "'" + user + "'@'%'";
        return List.of(
                "CREATE USER " + who + " IDENTIFIED BY '" + password + "'",
                "GRANT SELECT ON `" + database + "`.CMINMSGS TO " + who,
                "GRANT UPDATE (CMINMSGS_DATE_PROCESSED) ON `" + database + "`.CMINMSGS TO " + who,
                "GRANT INSERT (COUTMSGS_CLOB_MSG, COUTMSGS_DATE_INSERTED, COUTMSGS_DATE_SENT, ROUTINGID),"
                        + " SELECT (COUTMSGS_ID, COUTMSGS_CLOB_MSG, COUTMSGS_DATE_INSERTED) ON `" + database
                        + "`.COUTMSGS TO " + who);
    }

    /** The one more right of a runner that offers the compatibility entry: writing new inbound rows. */
    static List<String> compatibilityEntryGrant(String database, String user) {
        return List.of("GRANT INSERT (CMINMSGS_CLOB_MSG, CMINMSGS_DATE_RECEIVED) ON `" + database + "`.CMINMSGS TO '"
                + user + "'@'%'");
    }

    void afterFirstMigration() throws SQLException {
        try (var admin = postgresAdmin()) {
            run(admin, postgresAfterFirstMigration(schema, runtime));
        }
    }

    void grantCompatibilityEntry() throws SQLException {
        try (var aodb = aodb()) {
            run(aodb, compatibilityEntryGrant(mailbox.name(), mailboxUser));
        }
    }

    /** The keys of {@code migrate}: the owner role on the store; the mailbox is not touched by a migration. */
    Map<String, String> ownerKeys() {
        var keys = new LinkedHashMap<>(runtimeKeys());
        keys.put(Keys.STORE_USER, owner);
        keys.put(Keys.STORE_PASSWORD, ownerPassword);
        return keys;
    }

    /** The keys of {@code run}: the runtime role on the store, the mailbox user on the mailbox. */
    Map<String, String> runtimeKeys() {
        var keys = new LinkedHashMap<String, String>();
        keys.put(Keys.STORE_URL, PgTestDatabase.URL);
        keys.put(Keys.STORE_USER, runtime);
        keys.put(Keys.STORE_PASSWORD, runtimePassword);
        keys.put(Keys.STORE_SCHEMA, schema);
        keys.put(Keys.MAILBOX_URL, mailboxUrl());
        keys.put(Keys.MAILBOX_USER, mailboxUser);
        keys.put(Keys.MAILBOX_PASSWORD, mailboxPassword);
        keys.put(Keys.KAFKA_ENABLED, "false"); // the tests that deliver name their broker
        return keys;
    }

    String mailboxUrl() {
        return mailbox.url()
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true&characterEncoding=UTF-8";
    }

    /** Every password this fixture made up: none may ever show in a log, an answer or an error. */
    List<String> passwords() {
        return List.of(ownerPassword, runtimePassword, mailboxPassword);
    }

    /** The AODB side's own connection to the mailbox database (the admin user). */
    Connection aodb() throws SQLException {
        return mailbox.connect();
    }

    /** A connection to the mailbox database as the runner's mailbox user. */
    Connection asMailboxUser() throws SQLException {
        return DriverManager.getConnection(mailboxUrl(), mailboxUser, mailboxPassword);
    }

    /** A connection to the store as the runtime role, the schema on its search path. */
    Connection asRuntimeRole() throws SQLException {
        var connection = DriverManager.getConnection(PgTestDatabase.URL, runtime, runtimePassword);
        try (var st = connection.createStatement()) {
            st.execute("SET search_path TO " + schema);
        }
        return connection;
    }

    /** A connection to the store as the local admin, the schema on its search path (to read what the runner did). */
    Connection postgresAdmin() throws SQLException {
        var connection = DriverManager.getConnection(PgTestDatabase.URL, PgTestDatabase.USER, PgTestDatabase.PASSWORD);
        try (var st = connection.createStatement()) {
            st.execute("SET search_path TO " + schema);
        }
        return connection;
    }

    /** Drops the schema, both roles, the mailbox user and the mailbox database; collects every failure. */
    @Override
    public void close() {
        var failures = new ArrayList<Exception>();
        try (var admin = DriverManager.getConnection(PgTestDatabase.URL, PgTestDatabase.USER, PgTestDatabase.PASSWORD);
             var st = admin.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            for (var role : List.of(runtime, owner)) {
                if (exists(admin, role)) {
                    st.execute("DROP OWNED BY " + role + " CASCADE");
                    st.execute("DROP ROLE " + role);
                }
            }
        } catch (SQLException e) {
            failures.add(e);
        }
        try (var aodb = aodb(); var st = aodb.createStatement()) {
            st.execute("DROP USER IF EXISTS '" + mailboxUser + "'@'%'");
        } catch (SQLException e) {
            failures.add(e);
        }
        try {
            mailbox.close();
        } catch (RuntimeException e) {
            failures.add(e);
        }
        if (!failures.isEmpty()) {
            var failure = new IllegalStateException("could not drop every least-privilege user and database");
            failures.forEach(failure::addSuppressed);
            throw failure;
        }
    }

    private static boolean exists(Connection admin, String role) throws SQLException {
        try (var query = admin.prepareStatement("SELECT 1 FROM pg_roles WHERE rolname = ?")) {
            query.setString(1, role);
            try (var rows = query.executeQuery()) {
                return rows.next();
            }
        }
    }

    private static void run(Connection connection, List<String> statements) throws SQLException {
        try (var st = connection.createStatement()) {
            for (var sql : statements) {
                st.execute(sql);
            }
        }
    }
}
