package io.msgx.adapter.pg;

import io.msgx.pipeline.port.RawMessageCopies;
import org.jooq.DSLContext;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

import static io.msgx.adapter.pg.jooq.Tables.RAW_MSG_COPY;

/**
 * {@link RawMessageCopies} on {@code RAW_MSG_COPY}, each call one auto-committed statement. The first copy of a
 * message is the one kept: keeping it again changes neither its text nor its time.
 */
final class PgRawMessageCopies implements RawMessageCopies {

    private final DSLContext dsl;

    PgRawMessageCopies(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public void keep(long msgId, String text, Instant at) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(at, "at");
        StoreOperation.run("keeping the raw copy of message " + msgId, () -> dsl
                .insertInto(RAW_MSG_COPY)
                .set(RAW_MSG_COPY.MSG_ID, msgId)
                .set(RAW_MSG_COPY.TEXT, text)
                .set(RAW_MSG_COPY.KEPT_AT, at)
                .onConflict(RAW_MSG_COPY.MSG_ID).doNothing()
                .execute());
    }

    @Override
    public Optional<String> find(long msgId) {
        return StoreOperation.run("reading the raw copy of message " + msgId, () -> dsl
                .select(RAW_MSG_COPY.TEXT)
                .from(RAW_MSG_COPY)
                .where(RAW_MSG_COPY.MSG_ID.eq(msgId))
                .fetchOptional(RAW_MSG_COPY.TEXT));
    }
}
