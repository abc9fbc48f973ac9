package io.msgx.adapter.mysql;

import io.msgx.pipeline.mailbox.MailboxContent;
import io.msgx.pipeline.mailbox.MailboxRow;
import io.msgx.pipeline.mailbox.MailboxRowUnreadableException;
import io.msgx.pipeline.mailbox.MailboxUnavailableException;
import io.msgx.pipeline.mailbox.MarkOutcome;
import io.msgx.pipeline.mailbox.OutboundMessage;
import io.msgx.pipeline.port.Mailbox;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import javax.sql.DataSource;

/**
 * The {@link Mailbox} port over the shared MySQL / MariaDB mailbox (sis-format §1), in plain JDBC.
 *
 * <p>What it guarantees:
 * <ul>
 *   <li>{@link #readAfter} runs {@code SELECT ID, DATE_RECEIVED FROM CMINMSGS WHERE ID > ? ORDER BY ID LIMIT ?}: the
 *       processing mark is never a predicate and the message text is not fetched.</li>
 *   <li>{@link #readContent} and {@link #readContents} read a row's text and its {@code STATUS} in one statement
 *       (sis-format §10), the status as stored (untrimmed, null for {@code NULL}); the status is never written. Built
 *       with {@code readsStatus} false, they select {@code NULL} for it and never name the column (D-110).</li>
 *   <li>{@link #markProcessed} runs exactly {@code UPDATE CMINMSGS SET DATE_PROCESSED = ? WHERE ID = ? AND
 *       DATE_PROCESSED IS NULL}; on 0 rows one {@code SELECT 1 ... WHERE ID = ?} tells
 *       {@link MarkOutcome#ALREADY_MARKED} (the old value is kept) from {@link MarkOutcome#MISSING_ROW}.
 *       {@link #markAllProcessed} marks them in one {@code UPDATE ... WHERE DATE_PROCESSED IS NULL AND ID IN
 *       (...)} and decides from its row count: when it matched every row, each was written; when fewer, one
 *       {@code SELECT} afterwards tells, row by row, written (it holds this mark), already marked (another mark) or
 *       missing (gone). Asking before the {@code UPDATE} would record as written a row deleted in between.</li>
 *   <li>Every statement carries the configured query timeout. Every {@link SQLException} (connection refused,
 *       timeout, missing table, denied privilege) becomes a {@link MailboxUnavailableException} naming the
 *       operation, the ID or watermark, and the table: a failure is never an empty answer.</li>
 *   <li>Instants are stored as {@code DATETIME(3)} wall-clock times in the configured zone, truncated to the
 *       millisecond; values read back are interpreted in the same zone.</li>
 *   <li>It never creates or alters a table (the AODB side owns them; see {@link MailboxDdl} for tests).</li>
 * </ul>
 *
 * <p>Connections come from the given {@link DataSource}, one per call, and are closed before the call returns.
 * If the source hands out connections with auto-commit off, each call commits its own work (or rolls it back on
 * failure). Connect and socket timeouts belong to the DataSource (for Connector/J: {@code connectTimeout},
 * {@code socketTimeout} in the URL); the JDBC URL should also say {@code characterEncoding=UTF-8} so the utf8mb4
 * text survives. Thread-safe when the DataSource is.
 */
public final class JdbcMailbox implements Mailbox {

    /** The airport zone of sis-format §2, the default zone of the mailbox's DATETIME values. */
    public static final ZoneId DEFAULT_ZONE = ZoneId.of("Asia/Shanghai");

    /** The default query timeout, in seconds, of every statement. */
    public static final int DEFAULT_QUERY_TIMEOUT_SECONDS = 10;

    private static final Logger log = LoggerFactory.getLogger(JdbcMailbox.class);

    private final DataSource dataSource;
    private final MailboxSchema schema;
    private final MailboxSql sql;
    private final MailboxTimes times;
    private final int queryTimeoutSeconds;

    /**
     * @param dataSource          connections to the mailbox database
     * @param schema              the table and column names ({@link MailboxSchema#defaults()} for sis-format §1)
     * @param zone                the zone of the mailbox's DATETIME values (the airport zone)
     * @param queryTimeoutSeconds the timeout of every statement, at least 1
     */
    public JdbcMailbox(DataSource dataSource, MailboxSchema schema, ZoneId zone, int queryTimeoutSeconds) {
        this(dataSource, schema, zone, queryTimeoutSeconds, true);
    }

    /**
     * As {@link #JdbcMailbox(DataSource, MailboxSchema, ZoneId, int)}; {@code readsStatus} false reads every row's status
     * as null without naming the status column (the status check is off: a table without the column is read too).
     */
    public JdbcMailbox(DataSource dataSource, MailboxSchema schema, ZoneId zone, int queryTimeoutSeconds,
                       boolean readsStatus) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.schema = Objects.requireNonNull(schema, "schema");
        this.times = new MailboxTimes(Objects.requireNonNull(zone, "zone"));
        if (queryTimeoutSeconds < 1) {
            throw new IllegalArgumentException("mailbox query timeout must be at least 1 second, got "
                    + queryTimeoutSeconds + " (0 would mean no timeout: a stuck mailbox would stall the poller)");
        }
        this.queryTimeoutSeconds = queryTimeoutSeconds;
        this.sql = MailboxSql.of(schema, readsStatus);
    }

    /** The sis-format names, the airport zone {@link #DEFAULT_ZONE} and {@link #DEFAULT_QUERY_TIMEOUT_SECONDS}. */
    public JdbcMailbox(DataSource dataSource) {
        this(dataSource, MailboxSchema.defaults(), DEFAULT_ZONE, DEFAULT_QUERY_TIMEOUT_SECONDS);
    }

    @Override
    public List<MailboxRow> readAfter(long watermark, int limit) {
        if (watermark < 0) {
            throw new IllegalArgumentException("watermark must be 0 or more, got " + watermark);
        }
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
        return execute("readAfter(watermark=" + watermark + ", limit=" + limit + ")", inboundTable(), c -> {
            try (PreparedStatement ps = prepare(c, sql.readAfter())) {
                ps.setLong(1, watermark);
                ps.setInt(2, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    List<MailboxRow> rows = new ArrayList<>();
                    while (rs.next()) {
                        rows.add(new MailboxRow(rs.getLong(1), times.fromColumn(rs.getObject(2, LocalDateTime.class))));
                    }
                    return List.copyOf(rows);
                }
            }
        });
    }

    /** {@inheritDoc} A row whose text is SQL NULL (the schema forbids it) reads as the empty string. */
    @Override
    public Optional<MailboxContent> readContent(long id) {
        return rowTied(() -> readContentOnce(id), "row " + id);
    }

    private Optional<MailboxContent> readContentOnce(long id) {
        return execute("readContent(id=" + id + ")", inboundTable(), c -> {
            try (PreparedStatement ps = prepare(c, sql.readContent())) {
                ps.setLong(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    String text = rs.getString(1);
                    return Optional.of(new MailboxContent(text == null ? "" : text, rs.getString(2)));
                }
            }
        });
    }

    @Override
    public Map<Long, MailboxContent> readContents(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        var distinct = List.copyOf(new LinkedHashSet<>(ids));
        return rowTied(() -> readContentsOnce(distinct), "one of rows " + distinct.get(0) + ".."
                + distinct.get(distinct.size() - 1));
    }

    /**
     * {@code read}, whose failure is told apart: when the inbound table still answers a query that reads no text, the
     * failure is tied to the rows read ({@link MailboxRowUnreadableException}); when it does not, it is the outage it was
     * reported as.
     */
    private <T> T rowTied(java.util.function.Supplier<T> read, String rows) {
        try {
            return read.get();
        } catch (MailboxUnavailableException e) {
            if (!answers()) {
                throw e;
            }
            log.warn("Mailbox answers, but the text of {} cannot be read: {}", rows, e.getMessage());
            throw new MailboxRowUnreadableException("the text of " + rows + " cannot be read while the mailbox answers: "
                    + e.getMessage(), e);
        }
    }

    /**
     * Whether the inbound table answers now, within the query timeout: its highest ID, which reads no text. A server
     * that is away, or a table locked by another session, does not answer, and the failure stays an outage.
     */
    private boolean answers() {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = prepare(c, sql.maxId());
             ResultSet rs = ps.executeQuery()) {
            return rs.next();
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    private Map<Long, MailboxContent> readContentsOnce(List<Long> distinct) {
        return execute("readContents(" + distinct.size() + " ids from " + distinct.get(0) + ")", inboundTable(), c -> {
            var texts = new HashMap<Long, MailboxContent>();
            try (PreparedStatement ps = prepare(c, sql.readContents(distinct.size()))) {
                for (int i = 0; i < distinct.size(); i++) {
                    ps.setLong(i + 1, distinct.get(i));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String text = rs.getString(2);
                        texts.put(rs.getLong(1), new MailboxContent(text == null ? "" : text, rs.getString(3)));
                    }
                }
            }
            return texts;
        });
    }

    @Override
    public Map<Long, MarkOutcome> markAllProcessed(Collection<Long> ids, Instant processedAt) {
        Objects.requireNonNull(processedAt, "processedAt");
        if (ids.isEmpty()) {
            return Map.of();
        }
        var distinct = List.copyOf(new LinkedHashSet<>(ids));
        return execute("markAllProcessed(" + distinct.size() + " ids from " + distinct.get(0) + ")", inboundTable(), c -> {
            var mark = times.toColumn(processedAt);
            int written;
            try (PreparedStatement update = prepare(c, sql.markAll(distinct.size()))) {
                update.setString(1, mark);
                for (int i = 0; i < distinct.size(); i++) {
                    update.setLong(i + 2, distinct.get(i));
                }
                written = update.executeUpdate();
            }
            var outcomes = new LinkedHashMap<Long, MarkOutcome>();
            if (written == distinct.size()) {
                distinct.forEach(id -> outcomes.put(id, MarkOutcome.WRITTEN));
                return outcomes;
            }
            distinct.forEach(id -> outcomes.put(id, MarkOutcome.MISSING_ROW));
            try (PreparedStatement ps = prepare(c, sql.markedAt(distinct.size()))) {
                ps.setString(1, mark);
                for (int i = 0; i < distinct.size(); i++) {
                    ps.setLong(i + 2, distinct.get(i));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        if (rs.getBoolean(2)) {
                            throw new SQLException("row " + rs.getLong(1) + " has no processing mark right after it"
                                    + " was marked: another writer cleared it meanwhile; the marks are tried again");
                        }
                        outcomes.put(rs.getLong(1), rs.getBoolean(3) ? MarkOutcome.WRITTEN : MarkOutcome.ALREADY_MARKED);
                    }
                }
            }
            return outcomes;
        });
    }

    @Override
    public MarkOutcome markProcessed(long id, Instant processedAt) {
        Objects.requireNonNull(processedAt, "processedAt");
        return execute("markProcessed(id=" + id + ")", inboundTable(), c -> {
            try (PreparedStatement update = prepare(c, sql.markProcessed())) {
                update.setString(1, times.toColumn(processedAt));
                update.setLong(2, id);
                if (update.executeUpdate() > 0) {
                    return MarkOutcome.WRITTEN;
                }
            }
            try (PreparedStatement exists = prepare(c, sql.inboundRowExists())) {
                exists.setLong(1, id);
                try (ResultSet rs = exists.executeQuery()) {
                    MarkOutcome outcome = rs.next() ? MarkOutcome.ALREADY_MARKED : MarkOutcome.MISSING_ROW;
                    log.debug("mailbox row {} in {}: processing mark not written, {}", id, inboundTable(), outcome);
                    return outcome;
                }
            }
        });
    }

    @Override
    public long appendInbound(String xml, Instant receivedAt) {
        Objects.requireNonNull(xml, "xml");
        return execute("appendInbound", inboundTable(), c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.appendInbound(), Statement.RETURN_GENERATED_KEYS)) {
                ps.setQueryTimeout(queryTimeoutSeconds);
                ps.setString(1, xml);
                ps.setString(2, receivedAt == null ? null : times.toColumn(receivedAt));
                ps.executeUpdate();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    if (!keys.next()) {
                        throw new SQLException("the insert returned no generated ID: check that "
                                + schema.inbound().idColumn() + " is an AUTO_INCREMENT primary key");
                    }
                    return keys.getLong(1);
                }
            }
        });
    }

    @Override
    public long appendOutbound(OutboundMessage message) {
        Objects.requireNonNull(message, "message");
        return execute("appendOutbound(routingId=" + message.routingId() + ")", outboundTable(), c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.appendOutbound(), Statement.RETURN_GENERATED_KEYS)) {
                ps.setQueryTimeout(queryTimeoutSeconds);
                ps.setString(1, message.xml());
                ps.setString(2, times.toColumn(message.insertedAt()));
                ps.setString(3, message.routingId());
                ps.executeUpdate();
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    if (!keys.next()) {
                        throw new SQLException("the insert returned no generated ID: check that "
                                + schema.outbound().idColumn() + " is an AUTO_INCREMENT primary key");
                    }
                    return keys.getLong(1);
                }
            }
        });
    }

    @Override
    public OptionalLong findOutbound(String marker, Instant insertedSince) {
        Objects.requireNonNull(marker, "marker");
        return execute("findOutbound(" + marker + ")", outboundTable(), c -> {
            try (PreparedStatement ps = c.prepareStatement(sql.findOutbound())) {
                ps.setQueryTimeout(queryTimeoutSeconds);
                ps.setString(1, times.toColumn(insertedSince));
                ps.setString(2, marker);
                try (ResultSet rows = ps.executeQuery()) {
                    return rows.next() ? OptionalLong.of(rows.getLong(1)) : OptionalLong.empty();
                }
            }
        });
    }

    @Override
    public OptionalLong minId() {
        return execute("minId()", inboundTable(), c -> singleLong(c, sql.minId()));
    }

    @Override
    public OptionalLong maxId() {
        return execute("maxId()", inboundTable(), c -> singleLong(c, sql.maxId()));
    }

    /** The names this mailbox reads and writes. */
    public MailboxSchema schema() {
        return schema;
    }

    private OptionalLong singleLong(Connection c, String query) throws SQLException {
        try (PreparedStatement ps = prepare(c, query); ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                return OptionalLong.empty();
            }
            long value = rs.getLong(1);
            return rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(value);
        }
    }

    private PreparedStatement prepare(Connection c, String statement) throws SQLException {
        PreparedStatement ps = c.prepareStatement(statement);
        try {
            ps.setQueryTimeout(queryTimeoutSeconds);
            return ps;
        } catch (SQLException e) {
            ps.close();
            throw e;
        }
    }

    private String inboundTable() {
        return schema.inbound().table();
    }

    private String outboundTable() {
        return schema.outbound().table();
    }

    /** One unit of JDBC work on a borrowed connection. */
    @FunctionalInterface
    private interface SqlWork<T> {
        T run(Connection connection) throws SQLException;
    }

    private <T> T execute(String operation, String table, SqlWork<T> work) {
        try (Connection c = dataSource.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            try {
                T result = work.run(c);
                if (!autoCommit) {
                    c.commit();
                }
                return result;
            } catch (SQLException | RuntimeException e) {
                if (!autoCommit) {
                    rollbackQuietly(c, e);
                }
                throw e;
            }
        } catch (SQLException e) {
            throw unavailable(operation, table, e);
        }
    }

    private static void rollbackQuietly(Connection c, Exception failure) {
        try {
            c.rollback();
        } catch (SQLException rollbackFailure) {
            failure.addSuppressed(rollbackFailure);
        }
    }

    private MailboxUnavailableException unavailable(String operation, String table, SQLException e) {
        return new MailboxUnavailableException("mailbox " + operation + " on table " + table + " failed: "
                + e.getMessage() + " (SQLState " + e.getSQLState() + ", error " + e.getErrorCode() + "). "
                + "The mailbox is unavailable, not empty: check that the MySQL mailbox is reachable, that table "
                + table + " exists with the configured column names (MailboxSchema), that the user may read and "
                + "write it, and the query timeout (" + queryTimeoutSeconds + " s); the caller retries.", e);
    }
}
