package io.msgx.tools.bench;

import io.msgx.adapter.mysql.MailboxSchema;
import io.msgx.tools.simulator.SimulatedMessage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.format.DateTimeFormatter;
import java.util.Iterator;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * Writes simulated messages straight into the inbound mailbox table as the AODB side would, but in bulk: multi-row
 * {@code INSERT}s of {@code rowsPerInsert} rows, each its own auto-committed statement, streaming from the
 * {@link SimulatedTraffic} so that at most one chunk of XML is held here. The receive time is the message's
 * simulated sending time (airport local, as the mailbox column holds it).
 *
 * <p>A multi-row insert is a "simple insert" for InnoDB: its AUTO_INCREMENT IDs are consecutive, so the filled
 * mailbox has no ID gap for intake to wait on.
 */
final class MailboxFiller {

    private static final DateTimeFormatter COLUMN_TEXT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    private final MailboxSchema.Inbound table;
    private final int rowsPerInsert;

    MailboxFiller(MailboxSchema.Inbound table, int rowsPerInsert) {
        this.table = Objects.requireNonNull(table, "table");
        if (rowsPerInsert < 1) {
            throw new IllegalArgumentException("rowsPerInsert must be at least 1, got " + rowsPerInsert);
        }
        this.rowsPerInsert = rowsPerInsert;
    }

    /** What one fill wrote. */
    record Filled(long rows, long bytes, long nanos, int days) {
        double rowsPerSecond() {
            return nanos == 0 ? 0 : rows / (nanos / 1e9);
        }
    }

    /** Write {@code count} messages from {@code traffic} on {@code connection} (auto-commit is switched on). */
    Filled fill(Connection connection, SimulatedTraffic traffic, long count, LongConsumer progress) throws SQLException {
        long start = System.nanoTime();
        connection.setAutoCommit(true);
        long written = 0;
        long bytes = 0;
        PreparedStatement full = null;
        try {
            while (written < count) {
                int rows = (int) Math.min(rowsPerInsert, count - written);
                PreparedStatement insert;
                if (rows == rowsPerInsert) {
                    if (full == null) {
                        full = connection.prepareStatement(sql(rowsPerInsert));
                    }
                    insert = full;
                } else {
                    insert = connection.prepareStatement(sql(rows));
                }
                try {
                    bytes += bind(insert, traffic, rows);
                    insert.executeUpdate();
                } finally {
                    if (insert != full) {
                        insert.close();
                    }
                }
                written += rows;
                progress.accept(written);
            }
        } finally {
            if (full != null) {
                full.close();
            }
        }
        return new Filled(written, bytes, System.nanoTime() - start, traffic.days());
    }

    /** Insert one message in its own transaction and return its mailbox ID (the live feeder's statement). */
    long insertOne(PreparedStatement single, SimulatedMessage message) throws SQLException {
        single.setString(1, message.xml());
        single.setString(2, message.writtenAt().format(COLUMN_TEXT));
        single.executeUpdate();
        try (var keys = single.getGeneratedKeys()) {
            if (!keys.next()) {
                throw new SQLException("the insert into " + table.table() + " returned no generated ID: "
                        + table.idColumn() + " must be an AUTO_INCREMENT primary key");
            }
            return keys.getLong(1);
        }
    }

    /** The statement {@link #insertOne} runs; auto-commit must be on. */
    PreparedStatement prepareSingle(Connection connection) throws SQLException {
        return connection.prepareStatement(sql(1), Statement.RETURN_GENERATED_KEYS);
    }

    private static long bind(PreparedStatement insert, Iterator<SimulatedMessage> traffic, int rows)
            throws SQLException {
        long bytes = 0;
        for (int i = 0; i < rows; i++) {
            var message = traffic.next();
            insert.setString(2 * i + 1, message.xml());
            insert.setString(2 * i + 2, message.writtenAt().format(COLUMN_TEXT));
            bytes += message.xml().length();
        }
        return bytes;
    }

    private String sql(int rows) {
        var sql = new StringBuilder("INSERT INTO `").append(table.table()).append("` (`").append(table.clobColumn())
                .append("`, `").append(table.receivedColumn()).append("`) VALUES ");
        for (int i = 0; i < rows; i++) {
            sql.append(i == 0 ? "(?, ?)" : ", (?, ?)");
        }
        return sql.toString();
    }
}
