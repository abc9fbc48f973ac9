package io.msgx.tools.bench;

import io.msgx.adapter.mysql.MailboxDdl;
import io.msgx.adapter.mysql.MailboxSchema;
import io.msgx.adapter.pg.PgSchema;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * The ground the bench runs on: the mailbox tables and our PostgreSQL schema. The bench fills and wipes them, so
 * it starts only on empty ground, or on ground the operator explicitly gave up with {@code --reset}.
 *
 * <ul>
 *   <li>{@link #inspect()} says what is there (rows in the mailbox tables, open and terminal messages, events).</li>
 *   <li>{@link #wipe()} truncates both mailbox tables (their AUTO_INCREMENT starts again at 1) and drops our schema
 *       with everything in it, then migrates it afresh.</li>
 * </ul>
 * Missing mailbox tables are created as sis-format §1 defines them (the bench is a test tool; in production the
 * AODB side owns them).
 */
final class BenchGround {

    private static final Pattern SCHEMA_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    private final Supplier<Connection> mailbox;
    private final MailboxSchema mailboxSchema;
    private final DataSource store;
    private final String schema;

    BenchGround(Supplier<Connection> mailbox, MailboxSchema mailboxSchema, DataSource store, String schema) {
        if (!SCHEMA_NAME.matcher(schema).matches()) {
            throw new IllegalArgumentException("msgx.store.schema '" + schema + "' is not a plain identifier; the bench "
                    + "only runs on a schema named like msgx_bench");
        }
        this.mailbox = mailbox;
        this.mailboxSchema = mailboxSchema;
        this.store = store;
        this.schema = schema;
    }

    /** What the ground holds; {@link #isEmpty()} when the bench may start without a reset. */
    record Contents(long inboundRows, long outboundRows, long messages, long events, long flights,
                    boolean mailboxTablesCreated) {
        boolean isEmpty() {
            return inboundRows == 0 && outboundRows == 0 && messages == 0 && events == 0 && flights == 0;
        }

        List<String> describe(String mailboxTable, String outboundTable, String schema) {
            var parts = new ArrayList<String>();
            if (inboundRows > 0) {
                parts.add(inboundRows + " row(s) in " + mailboxTable);
            }
            if (outboundRows > 0) {
                parts.add(outboundRows + " row(s) in " + outboundTable);
            }
            if (messages > 0) {
                parts.add(messages + " message(s) in " + schema + ".PROC_STATE");
            }
            if (events > 0) {
                parts.add(events + " event(s) in " + schema + ".MSG_EVENT");
            }
            if (flights > 0) {
                parts.add(flights + " flight(s) in " + schema + ".FLIGHT_SCHD");
            }
            return parts;
        }
    }

    /** Check (creating missing mailbox tables) and report what is there. */
    Contents inspect() throws SQLException {
        boolean created = false;
        long inbound;
        long outbound;
        try (var connection = mailbox.get()) {
            if (!tableExists(connection, mailboxSchema.inbound().table())
                    || !tableExists(connection, mailboxSchema.outbound().table())) {
                new MailboxDdl(mailboxSchema).createTables(connection);
                created = true;
            }
            inbound = count(connection, "SELECT COUNT(*) FROM `" + mailboxSchema.inbound().table() + "`");
            outbound = count(connection, "SELECT COUNT(*) FROM `" + mailboxSchema.outbound().table() + "`");
        }
        long messages = 0;
        long events = 0;
        long flights = 0;
        try (var connection = store.getConnection()) {
            if (storeTableExists(connection, "proc_state")) {
                messages = count(connection, "SELECT COUNT(*) FROM " + quoted() + ".proc_state");
            }
            if (storeTableExists(connection, "msg_event")) {
                events = count(connection, "SELECT COUNT(*) FROM " + quoted() + ".msg_event");
            }
            if (storeTableExists(connection, "flight_schd")) {
                flights = count(connection, "SELECT COUNT(*) FROM " + quoted() + ".flight_schd");
            }
        }
        return new Contents(inbound, outbound, messages, events, flights, created);
    }

    /** Empty the mailbox tables and recreate our schema, migrated. */
    void wipe() throws SQLException {
        try (var connection = mailbox.get(); var statement = connection.createStatement()) {
            statement.execute("TRUNCATE TABLE `" + mailboxSchema.inbound().table() + "`");
            statement.execute("TRUNCATE TABLE `" + mailboxSchema.outbound().table() + "`");
        }
        try (var connection = store.getConnection(); var statement = connection.createStatement()) {
            connection.setAutoCommit(true);
            statement.execute("DROP SCHEMA IF EXISTS " + quoted() + " CASCADE");
        }
        PgSchema.migrate(store, schema);
    }

    /** Bring our schema to this build's version (a no-op when current). */
    void migrate() {
        PgSchema.migrate(store, schema);
    }

    String describe(Contents contents) {
        return String.join(", ", contents.describe(mailboxSchema.inbound().table(), mailboxSchema.outbound().table(),
                schema));
    }

    private String quoted() {
        return '"' + schema + '"';
    }

    private boolean storeTableExists(Connection connection, String table) throws SQLException {
        try (var query = connection.prepareStatement("SELECT COUNT(*) FROM information_schema.tables "
                + "WHERE table_schema = ? AND lower(table_name) = ?")) {
            query.setString(1, schema);
            query.setString(2, table);
            try (var rows = query.executeQuery()) {
                rows.next();
                return rows.getLong(1) > 0;
            }
        }
    }

    private static boolean tableExists(Connection connection, String table) throws SQLException {
        try (var query = connection.prepareStatement("SELECT COUNT(*) FROM information_schema.tables "
                + "WHERE table_schema = DATABASE() AND table_name = ?")) {
            query.setString(1, table);
            try (var rows = query.executeQuery()) {
                rows.next();
                return rows.getLong(1) > 0;
            }
        }
    }

    private static long count(Connection connection, String sql) throws SQLException {
        try (var statement = connection.createStatement(); var rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
