package io.msgx.adapter.mysql;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Objects;

import static io.msgx.adapter.mysql.MailboxSql.q;

/**
 * Creates (and drops) {@code CMINMSGS} and {@code COUTMSGS} exactly as sis-format §1 defines them, under the
 * configured names. <strong>For tests and the demo only:</strong> in production the AODB side owns these tables and
 * our code never creates, alters or drops them; nothing in the adapter calls this class.
 *
 * <p>Creation uses {@code CREATE TABLE IF NOT EXISTS}, so running it twice is harmless (an existing table is left
 * as it is, whatever its shape).
 */
public final class MailboxDdl {

    private final MailboxSchema schema;

    public MailboxDdl(MailboxSchema schema) {
        this.schema = Objects.requireNonNull(schema, "schema");
    }

    /** The two {@code CREATE TABLE} statements, inbound first. */
    public List<String> createStatements() {
        MailboxSchema.Inbound in = schema.inbound();
        MailboxSchema.Outbound out = schema.outbound();
        String inbound = "CREATE TABLE IF NOT EXISTS " + q(in.table()) + " (\n"
                + "  " + q(in.idColumn()) + " BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,\n"
                + "  " + q(in.clobColumn()) + " MEDIUMTEXT NOT NULL,\n"
                + "  " + q(in.receivedColumn()) + " DATETIME(3) NULL,\n"
                + "  " + q(in.processedColumn()) + " DATETIME(3) NULL,\n"
                + "  " + q(in.subsystemNameColumn()) + " VARCHAR(16) NULL,\n"
                + "  " + q(in.subsystemTypeColumn()) + " VARCHAR(8) NULL,\n"
                + "  " + q(in.subsystemSubtypeColumn()) + " VARCHAR(8) NULL,\n"
                + "  " + q(in.subsystemSequenceColumn()) + " BIGINT NULL,\n"
                + "  " + q(in.statusColumn()) + " VARCHAR(20) NULL DEFAULT 'VALID'\n"
                + ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";
        String outbound = "CREATE TABLE IF NOT EXISTS " + q(out.table()) + " (\n"
                + "  " + q(out.idColumn()) + " BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,\n"
                + "  " + q(out.clobColumn()) + " MEDIUMTEXT NOT NULL,\n"
                + "  " + q(out.insertedColumn()) + " DATETIME(3) NOT NULL,\n"
                + "  " + q(out.sentColumn()) + " DATETIME(3) NULL,\n"
                + "  " + q(out.routingIdColumn()) + " VARCHAR(32) NOT NULL\n"
                + ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";
        return List.of(inbound, outbound);
    }

    /** The two {@code DROP TABLE IF EXISTS} statements. */
    public List<String> dropStatements() {
        return List.of("DROP TABLE IF EXISTS " + q(schema.inbound().table()),
                "DROP TABLE IF EXISTS " + q(schema.outbound().table()));
    }

    /** Run {@link #createStatements()} on {@code connection} (DDL commits implicitly in MySQL). */
    public void createTables(Connection connection) throws SQLException {
        run(connection, createStatements());
    }

    /** Run {@link #dropStatements()} on {@code connection}. */
    public void dropTables(Connection connection) throws SQLException {
        run(connection, dropStatements());
    }

    private static void run(Connection connection, List<String> statements) throws SQLException {
        try (Statement st = connection.createStatement()) {
            for (String ddl : statements) {
                st.execute(ddl);
            }
        }
    }
}
