package io.msgx.adapter.jdbc;

import io.msgx.pipeline.port.RawMessageCopies;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link RawMessageCopies} on {@code RAW_MSG_COPY}, each call one auto-committed statement. The first copy of a
 * message is the one kept: keeping it again changes neither its text nor its time. An empty message is stored as
 * NULL (Oracle's '') and found again as {@code ""}.
 */
public final class JdbcRawMessageCopies implements RawMessageCopies {

    private final StoreJdbc sql;

    public JdbcRawMessageCopies(StoreJdbc sql) {
        this.sql = sql;
    }

    @Override
    public void keep(long msgId, String text, Instant at) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(at, "at");
        var keep = sql.dialect().insertUnlessPresent("RAW_MSG_COPY", 1, "MSG_ID", "TEXT", "KEPT_AT");
        sql.runOrRecover("keeping the raw copy of message " + msgId,
                session -> session.update(keep.sql(), keep.params(msgId, new StoreJdbc.LongText(text), at)),
                failure -> {
                    if (sql.failures().isUniqueViolation(failure)) {
                        return 0; // kept concurrently: the first copy stays
                    }
                    throw failure;
                });
    }

    @Override
    public Optional<String> find(long msgId) {
        return sql.run("reading the raw copy of message " + msgId, session -> session.one(
                "SELECT TEXT FROM RAW_MSG_COPY WHERE MSG_ID = ?", row -> row.textOrEmpty("TEXT"), msgId));
    }
}
