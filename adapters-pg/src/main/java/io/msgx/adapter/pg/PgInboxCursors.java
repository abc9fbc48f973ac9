package io.msgx.adapter.pg;

import io.msgx.pipeline.port.InboxCursors;
import io.msgx.pipeline.store.InboxCursor;
import org.jooq.DSLContext;

import java.time.Clock;
import java.time.Instant;

import static io.msgx.adapter.pg.jooq.Tables.INBOX_CURSOR;
import static io.msgx.adapter.pg.jooq.Tables.PROC_STATE;
import static org.jooq.impl.DSL.notExists;
import static org.jooq.impl.DSL.selectOne;

/** {@link InboxCursors} on the single {@code INBOX_CURSOR} row ({@code ID = 1}) the migration creates. */
final class PgInboxCursors implements InboxCursors {

    private static final short ROW = 1;

    private final DSLContext dsl;
    private final Clock clock;

    PgInboxCursors(DSLContext dsl, Clock clock) {
        this.dsl = dsl;
        this.clock = clock;
    }

    @Override
    public InboxCursor load() {
        return StoreOperation.run("reading the inbox cursor", () -> dsl
                .select(INBOX_CURSOR.W, INBOX_CURSOR.HOLE_SINCE, INBOX_CURSOR.SEEDED_AT)
                .from(INBOX_CURSOR).where(INBOX_CURSOR.ID.eq(ROW))
                .fetchOptional(row -> new InboxCursor(row.value1(), row.value2(), row.value3()))
                .orElseThrow(PgInboxCursors::missingRow));
    }

    @Override
    public void save(long watermark, Instant holeSince) {
        if (watermark < 0) {
            throw new IllegalArgumentException("the watermark is never negative, got " + watermark);
        }
        StoreOperation.run("saving the inbox cursor at watermark " + watermark, () -> {
            int rows = dsl.update(INBOX_CURSOR)
                    .set(INBOX_CURSOR.W, watermark)
                    .set(INBOX_CURSOR.HOLE_SINCE, holeSince)
                    .set(INBOX_CURSOR.UPDATED_AT, clock.instant())
                    .where(INBOX_CURSOR.ID.eq(ROW))
                    .execute();
            if (rows != 1) {
                throw missingRow();
            }
            return null;
        });
    }

    @Override
    public boolean seed(long watermark, Instant seededAt) {
        if (watermark < 0) {
            throw new IllegalArgumentException("the seed watermark is never negative, got " + watermark);
        }
        return StoreOperation.run("seeding the inbox cursor at watermark " + watermark, () -> dsl
                .update(INBOX_CURSOR)
                .set(INBOX_CURSOR.W, watermark)
                .set(INBOX_CURSOR.SEEDED_AT, seededAt)
                .set(INBOX_CURSOR.UPDATED_AT, seededAt)
                .where(INBOX_CURSOR.ID.eq(ROW))
                .and(INBOX_CURSOR.W.eq(0L))
                .and(INBOX_CURSOR.SEEDED_AT.isNull())
                .and(notExists(selectOne().from(PROC_STATE)))
                .execute() == 1);
    }

    private static IllegalStateException missingRow() {
        return new IllegalStateException("INBOX_CURSOR has no row 1: the schema was not created by the Flyway "
                + "migration (run PgSchema.migrate), or the row was deleted by hand (re-insert (1, 0, NULL, NULL, now()))");
    }
}
