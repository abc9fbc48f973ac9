package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.Sql;

import io.msgx.pipeline.port.RawMessageCopies;

import java.sql.SQLException;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link RawMessageCopies} on {@code RAW_MSG_COPY}, each call one auto-committed statement. The first copy of a
 * message is the one kept: keeping it again changes neither its text nor its time. An empty message is stored as
 * NULL (Oracle's '') and found again as {@code ""}.
 */
final class OracleRawMessageCopies implements RawMessageCopies {

    private final Sql sql;

    OracleRawMessageCopies(Sql sql) {
        this.sql = sql;
    }

    @Override
    public void keep(long msgId, String text, Instant at) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(at, "at");
        sql.run("keeping the raw copy of message " + msgId, session -> {
            try {
                return session.update("MERGE INTO RAW_MSG_COPY c USING dual ON (c.MSG_ID = ?)"
                                + " WHEN NOT MATCHED THEN INSERT (MSG_ID, TEXT, KEPT_AT) VALUES (?, ?, ?)",
                        msgId, msgId, new Sql.LongText(text), at);
            } catch (SQLException e) {
                if (OracleDialect.FAILURES.isUniqueViolation(e)) {
                    return 0; // kept concurrently: the first copy stays
                }
                throw e;
            }
        });
    }

    @Override
    public Optional<String> find(long msgId) {
        return sql.run("reading the raw copy of message " + msgId, session -> session.one(
                "SELECT TEXT FROM RAW_MSG_COPY WHERE MSG_ID = ?", row -> row.textOrEmpty("TEXT"), msgId));
    }
}
