package io.msgx.runner;

import io.msgx.adapter.mysql.JdbcMailbox;
import io.msgx.adapter.mysql.MailboxDdl;
import io.msgx.adapter.mysql.MailboxSchema;
import io.msgx.adapter.mysql.TestMailboxDatabase;
import io.msgx.adapter.pg.PgTestDatabase;
import io.msgx.pipeline.store.PipelineStore;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.ZoneId;

/**
 * The real parts for one end-to-end test: a fresh MariaDB database holding the mailbox tables exactly as
 * sis-format §1 defines them, and a fresh, migrated PostgreSQL schema. Both are dropped after the test.
 */
final class RealServices implements BeforeEachCallback, AfterEachCallback {

    final PgTestDatabase postgres = new PgTestDatabase();
    private TestMailboxDatabase mariadb;
    private JdbcMailbox mailbox;

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        postgres.beforeEach(context);
        mariadb = TestMailboxDatabase.create();
        try (var connection = mariadb.connect()) {
            new MailboxDdl(MailboxSchema.defaults()).createTables(connection);
        }
        mailbox = new JdbcMailbox(mariadb.dataSource(), MailboxSchema.defaults(), ZoneId.of("Asia/Shanghai"), 10);
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        try {
            mariadb.close();
        } finally {
            postgres.afterEach(context);
        }
    }

    /** The JDBC URL of this test's mailbox database, as a runner's configuration would name it. */
    String mailboxUrl() {
        return "jdbc:mysql://127.0.0.1:3306/" + mariadb.name() + "?sslMode=DISABLED&allowPublicKeyRetrieval=true";
    }

    JdbcMailbox mailbox() {
        return mailbox;
    }

    PipelineStore store(SettableClock clock) {
        return postgres.store(clock);
    }

    /** A connection to the mailbox database, as the AODB side would hold one. */
    Connection aodbConnection() throws SQLException {
        return mariadb.connect();
    }

    /** Insert an inbound row as the AODB side does, committed; returns its ID. */
    long deliver(String xml) throws SQLException {
        try (var connection = aodbConnection()) {
            return insert(connection, xml);
        }
    }

    /** Insert an inbound row on {@code connection} (whose transaction the caller controls); returns its ID. */
    static long insert(Connection connection, String xml) throws SQLException {
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

    /** A single number from our PostgreSQL schema, e.g. a count. */
    long countInPostgres(String sql) throws SQLException {
        try (var connection = postgres.dataSource().getConnection(); var statement = connection.createStatement();
             var rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
