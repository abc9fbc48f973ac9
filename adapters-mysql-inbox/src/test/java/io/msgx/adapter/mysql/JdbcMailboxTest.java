package io.msgx.adapter.mysql;

import com.mysql.cj.jdbc.MysqlDataSource;
import io.msgx.pipeline.mailbox.MailboxContract;
import io.msgx.pipeline.mailbox.MailboxRow;
import io.msgx.pipeline.mailbox.MailboxUnavailableException;
import io.msgx.pipeline.mailbox.MarkOutcome;
import io.msgx.pipeline.mailbox.OutboundMessage;
import io.msgx.pipeline.port.Mailbox;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

import static io.msgx.adapter.mysql.MailboxSql.q;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link JdbcMailbox} against the real local MariaDB: the shared {@link MailboxContract}, plus what only a real
 * database shows (the zone of DATETIME values, the query timeout, a missing table). Its own database per class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JdbcMailboxTest extends MailboxContract {

    static final ZoneId AIRPORT = ZoneId.of("Asia/Shanghai");

    private TestMailboxDatabase db;
    private MailboxTimes times;

    /** The names under test; a subclass proves that other names work too. */
    protected MailboxSchema schema() {
        return MailboxSchema.defaults();
    }

    @BeforeAll
    void createDatabaseAndTables() throws SQLException {
        db = TestMailboxDatabase.create();
        times = new MailboxTimes(AIRPORT);
        try (Connection c = db.connect()) {
            new MailboxDdl(schema()).createTables(c);
        }
    }

    @AfterAll
    void dropDatabase() {
        if (db != null) {
            db.close();
        }
    }

    @Override
    protected Mailbox freshMailbox() {
        execute("TRUNCATE TABLE " + q(in().table()));
        execute("TRUNCATE TABLE " + q(out().table()));
        return new JdbcMailbox(db.dataSource(), schema(), AIRPORT, 5);
    }

    @Override
    protected long insertInbound(String xml, Instant receivedAtOrNull) {
        String sql = "INSERT INTO " + q(in().table()) + " (" + q(in().clobColumn()) + ", " + q(in().receivedColumn())
                + ") VALUES (?, ?)";
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, xml);
            ps.setString(2, receivedAtOrNull == null ? null : times.toColumn(receivedAtOrNull));
            ps.executeUpdate();
            try (ResultSet keys = ps.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected void insertInboundWithId(long id, String xml) {
        String sql = "INSERT INTO " + q(in().table()) + " (" + q(in().idColumn()) + ", " + q(in().clobColumn())
                + ") VALUES (?, ?)";
        update(sql, id, xml);
    }

    @Override
    protected void deleteInbound(long id) {
        update("DELETE FROM " + q(in().table()) + " WHERE " + q(in().idColumn()) + " = ?", id);
    }

    @Override
    protected void setStatus(long id, String status) {
        update("UPDATE " + q(in().table()) + " SET " + q(in().statusColumn()) + " = ? WHERE " + q(in().idColumn())
                + " = ?", status, id);
    }

    @Override
    protected Optional<Instant> processedMarkOf(long id) {
        String sql = "SELECT " + q(in().processedColumn()) + " FROM " + q(in().table()) + " WHERE "
                + q(in().idColumn()) + " = ?";
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("no inbound row " + id);
                }
                return Optional.ofNullable(times.fromColumn(rs.getObject(1, LocalDateTime.class)));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected List<OutboundRow> outboundRows() {
        String sql = "SELECT " + q(out().idColumn()) + ", " + q(out().clobColumn()) + ", " + q(out().routingIdColumn())
                + ", " + q(out().insertedColumn()) + ", " + q(out().sentColumn()) + " FROM " + q(out().table())
                + " ORDER BY " + q(out().idColumn());
        try (Connection c = db.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            List<OutboundRow> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(new OutboundRow(rs.getLong(1), rs.getString(2), rs.getString(3),
                        times.fromColumn(rs.getObject(4, LocalDateTime.class)),
                        times.fromColumn(rs.getObject(5, LocalDateTime.class))));
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---------------------------------------------------------------- what only the real database shows

    @Test
    void datetimeColumnsHoldAirportWallClockTime() {
        long id = insertInbound("<MSG/>", null);
        execute("UPDATE " + q(in().table()) + " SET " + q(in().receivedColumn()) + " = '2024-03-11 08:35:00.250'");

        assertThat(mailbox.readAfter(0, 1))
                .containsExactly(new MailboxRow(id, Instant.parse("2024-03-11T00:35:00.250Z")));

        mailbox.markProcessed(id, Instant.parse("2024-03-11T16:00:00.007Z"));
        assertThat(queryString("SELECT DATE_FORMAT(" + q(in().processedColumn()) + ", '%Y-%m-%d %H:%i:%s.%f') FROM "
                + q(in().table()))).isEqualTo("2024-03-12 00:00:00.007000");
    }

    @Test
    void aRowDeletedJustBeforeTheMarkIsWrittenIsMissingNotWritten() {
        freshMailbox();
        long kept = insertInbound(xml(1), null);
        long deleted = insertInbound(xml(2), null);
        // The AODB side deletes a row at the worst moment: after anything we could ask first, before our UPDATE.
        var racing = (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{DataSource.class},
                (proxy, method, args) -> {
                    var result = method.invoke(db.dataSource(), args);
                    if (!method.getName().equals("getConnection")) {
                        return result;
                    }
                    var connection = (Connection) result;
                    return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Connection.class},
                            (p, m, a) -> {
                                if (m.getName().equals("prepareStatement") && a[0].toString().startsWith("UPDATE")) {
                                    deleteInbound(deleted);
                                }
                                try {
                                    return m.invoke(connection, a);
                                } catch (java.lang.reflect.InvocationTargetException e) {
                                    throw e.getCause();
                                }
                            });
                });
        var mailbox = new JdbcMailbox(racing, schema(), AIRPORT, 5);

        var outcomes = mailbox.markAllProcessed(List.of(kept, deleted), Instant.parse("2024-03-11T00:35:00Z"));

        assertThat(outcomes).containsEntry(kept, MarkOutcome.WRITTEN).containsEntry(deleted, MarkOutcome.MISSING_ROW);
    }

    @Test
    void theProcessingMarkOfAnotherWriterIsKept() {
        long id = insertInbound("<MSG/>", null);
        execute("UPDATE " + q(in().table()) + " SET " + q(in().processedColumn()) + " = '2024-01-01 00:00:00.000'");

        assertThat(mailbox.markProcessed(id, Instant.parse("2024-03-11T00:00:00Z"))).isEqualTo(MarkOutcome.ALREADY_MARKED);
        assertThat(processedMarkOf(id)).contains(Instant.parse("2023-12-31T16:00:00Z"));
    }

    @Test
    void aStatementBlockedPastTheQueryTimeoutIsUnavailable() throws SQLException {
        long id = insertInbound("<MSG/>", null);
        JdbcMailbox impatient = new JdbcMailbox(db.dataSource(), schema(), AIRPORT, 1);
        try (Connection locker = db.connect()) {
            locker.setAutoCommit(false);
            try (Statement st = locker.createStatement()) {
                st.executeQuery("SELECT * FROM " + q(in().table()) + " WHERE " + q(in().idColumn()) + " = " + id
                        + " FOR UPDATE").close();
            }
            long started = System.nanoTime();

            assertThatThrownBy(() -> impatient.markProcessed(id, Instant.EPOCH))
                    .isInstanceOf(MailboxUnavailableException.class)
                    .hasMessageContaining("markProcessed(id=" + id + ")")
                    .hasMessageContaining(in().table())
                    .hasCauseInstanceOf(SQLTimeoutException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));
            locker.rollback();
        }
        assertThat(processedMarkOf(id)).isEmpty();
    }

    @Test
    void aMissingTableIsUnavailableAndNamesTheTable() {
        MailboxSchema.Inbound i = in();
        MailboxSchema.Outbound o = out();
        MailboxSchema absent = new MailboxSchema(
                new MailboxSchema.Inbound("NO_SUCH_INBOX", i.idColumn(), i.clobColumn(), i.receivedColumn(),
                        i.processedColumn(), i.subsystemNameColumn(), i.subsystemTypeColumn(),
                        i.subsystemSubtypeColumn(), i.subsystemSequenceColumn(), i.statusColumn()),
                new MailboxSchema.Outbound("NO_SUCH_OUTBOX", o.idColumn(), o.clobColumn(), o.insertedColumn(),
                        o.sentColumn(), o.routingIdColumn()));
        JdbcMailbox wrong = new JdbcMailbox(db.dataSource(), absent, AIRPORT, 5);

        assertThatThrownBy(() -> wrong.readAfter(7, 10))
                .isInstanceOf(MailboxUnavailableException.class)
                .hasMessageContaining("readAfter(watermark=7")
                .hasMessageContaining("NO_SUCH_INBOX");
        assertThatThrownBy(() -> wrong.maxId())
                .isInstanceOf(MailboxUnavailableException.class)
                .hasMessageContaining("NO_SUCH_INBOX");
        assertThatThrownBy(() -> wrong.appendOutbound(new OutboundMessage("<MSG/>", "RMS", Instant.EPOCH)))
                .isInstanceOf(MailboxUnavailableException.class)
                .hasMessageContaining("NO_SUCH_OUTBOX");
    }

    @Test
    void aMisnamedColumnIsUnavailableNotEmpty() {
        MailboxSchema.Inbound i = in();
        MailboxSchema wrongColumn = new MailboxSchema(
                new MailboxSchema.Inbound(i.table(), i.idColumn(), i.clobColumn(), i.receivedColumn(),
                        "NO_SUCH_COLUMN", i.subsystemNameColumn(), i.subsystemTypeColumn(),
                        i.subsystemSubtypeColumn(), i.subsystemSequenceColumn(), i.statusColumn()),
                out());
        long id = insertInbound("<MSG/>", null);

        assertThatThrownBy(() -> new JdbcMailbox(db.dataSource(), wrongColumn, AIRPORT, 5).markProcessed(id, Instant.EPOCH))
                .isInstanceOf(MailboxUnavailableException.class)
                .hasMessageContaining("NO_SUCH_COLUMN");
    }

    @Test
    void aMissingStatusColumnIsReadAsNullWhenTheStatusIsNotRead() throws SQLException {
        MailboxSchema.Inbound i = in();
        MailboxSchema noStatus = new MailboxSchema(new MailboxSchema.Inbound(i.table(), i.idColumn(), i.clobColumn(),
                i.receivedColumn(), i.processedColumn(), i.subsystemNameColumn(), i.subsystemTypeColumn(),
                i.subsystemSubtypeColumn(), i.subsystemSequenceColumn(), "NO_SUCH_STATUS"), out());
        long id = insertInbound(xml(1), null);
        setStatus(id, "INVALID");

        assertThat(new JdbcMailbox(db.dataSource(), noStatus, AIRPORT, 5, false).readContent(id))
                .as("the check off: the column is not named").contains(new io.msgx.pipeline.mailbox.MailboxContent(xml(1), null));
        assertThat(new JdbcMailbox(db.dataSource(), schema(), AIRPORT, 5, false).readContents(List.of(id)))
                .containsEntry(id, new io.msgx.pipeline.mailbox.MailboxContent(xml(1), null));
        assertThatThrownBy(() -> new JdbcMailbox(db.dataSource(), noStatus, AIRPORT, 5).readContent(id))
                .as("the check on: a misnamed status column is a failure, never a NULL status")
                .hasMessageContaining("NO_SUCH_STATUS");
    }

    @Test
    void writesAreCommittedWhenTheDataSourceHandsOutConnectionsWithAutoCommitOff() {
        long id = insertInbound("<MSG/>", null);
        MysqlDataSource manual = new MysqlDataSource() {
            private static final long serialVersionUID = 1L;

            @Override
            public Connection getConnection() throws SQLException {
                Connection c = super.getConnection();
                c.setAutoCommit(false);
                return c;
            }
        };
        MysqlDataSource plain = (MysqlDataSource) db.dataSource();
        manual.setURL(plain.getURL());
        manual.setUser(plain.getUser());
        manual.setPassword("");
        JdbcMailbox pooledLike = new JdbcMailbox(manual, schema(), AIRPORT, 5);

        assertThat(pooledLike.markProcessed(id, Instant.parse("2024-03-11T00:00:00Z"))).isEqualTo(MarkOutcome.WRITTEN);
        long out = pooledLike.appendOutbound(new OutboundMessage("<MSG/>", "RMS", Instant.EPOCH));

        assertThat(processedMarkOf(id)).contains(Instant.parse("2024-03-11T00:00:00Z"));
        assertThat(outboundRows()).extracting(OutboundRow::id).containsExactly(out);
        assertThat(pooledLike.readAfter(0, 10)).extracting(MailboxRow::id).containsExactly(id);
    }

    @Test
    void theTestDdlCreatesTheTablesOfSisFormatUnderTheConfiguredNames() {
        MailboxSchema.Inbound i = in();
        MailboxSchema.Outbound o = out();

        assertThat(columnsOf(i.table())).containsExactly(
                i.idColumn() + " bigint(20) NO auto_increment",
                i.clobColumn() + " mediumtext NO ",
                i.receivedColumn() + " datetime(3) YES ",
                i.processedColumn() + " datetime(3) YES ",
                i.subsystemNameColumn() + " varchar(16) YES ",
                i.subsystemTypeColumn() + " varchar(8) YES ",
                i.subsystemSubtypeColumn() + " varchar(8) YES ",
                i.subsystemSequenceColumn() + " bigint(20) YES ",
                i.statusColumn() + " varchar(20) YES ");
        assertThat(columnsOf(o.table())).containsExactly(
                o.idColumn() + " bigint(20) NO auto_increment",
                o.clobColumn() + " mediumtext NO ",
                o.insertedColumn() + " datetime(3) NO ",
                o.sentColumn() + " datetime(3) YES ",
                o.routingIdColumn() + " varchar(32) NO ");
        assertThat(queryString("SELECT CONCAT(ENGINE, ' ', TABLE_COLLATION) FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '" + i.table() + "'")).startsWith("InnoDB utf8mb4");
        assertThat(queryString("SELECT COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()"
                + " AND TABLE_NAME = '" + i.table() + "' AND COLUMN_NAME = '" + i.statusColumn() + "'")).contains("VALID");
    }

    // ---------------------------------------------------------------- plumbing

    private List<String> columnsOf(String table) {
        String sql = "SELECT CONCAT(COLUMN_NAME, ' ', COLUMN_TYPE, ' ', IS_NULLABLE, ' ', EXTRA)"
                + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?"
                + " ORDER BY ORDINAL_POSITION";
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                List<String> columns = new ArrayList<>();
                while (rs.next()) {
                    columns.add(rs.getString(1));
                }
                return columns;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private MailboxSchema.Inbound in() {
        return schema().inbound();
    }

    private MailboxSchema.Outbound out() {
        return schema().outbound();
    }

    private void execute(String sql) {
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private void update(String sql, Object... args) {
        try (Connection c = db.connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int k = 0; k < args.length; k++) {
                ps.setObject(k + 1, args[k]);
            }
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private String queryString(String sql) {
        try (Connection c = db.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
