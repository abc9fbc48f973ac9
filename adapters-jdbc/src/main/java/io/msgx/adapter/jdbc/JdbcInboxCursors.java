package io.msgx.adapter.jdbc;

import io.msgx.pipeline.port.InboxCursors;
import io.msgx.pipeline.record.InboxCursor;

import java.time.Clock;
import java.time.Instant;

/** {@link InboxCursors} on the single {@code INBOX_CURSOR} row ({@code ID = 1}) that V1 creates. */
public final class JdbcInboxCursors implements InboxCursors {

    private final StoreJdbc sql;
    private final Clock clock;

    public JdbcInboxCursors(StoreJdbc sql, Clock clock) {
        this.sql = sql;
        this.clock = clock;
    }

    @Override
    public InboxCursor load() {
        return sql.run("reading the inbox cursor", session -> session.one(
                        "SELECT W, HOLE_SINCE, SEEDED_AT FROM INBOX_CURSOR WHERE ID = 1",
                        row -> new InboxCursor(row.longValue("W"), row.instant("HOLE_SINCE"),
                                row.instant("SEEDED_AT"))))
                .orElseThrow(JdbcInboxCursors::missingRow);
    }

    @Override
    public void save(long watermark, Instant holeSince) {
        if (watermark < 0) {
            throw new IllegalArgumentException("the watermark is never negative, got " + watermark);
        }
        int rows = sql.run("saving the inbox cursor at watermark " + watermark, session -> session.update(
                "UPDATE INBOX_CURSOR SET W = ?, HOLE_SINCE = ?, UPDATED_AT = ? WHERE ID = 1",
                watermark, holeSince, clock.instant()));
        if (rows != 1) {
            throw missingRow();
        }
    }

    @Override
    public boolean seed(long watermark, Instant seededAt) {
        if (watermark < 0) {
            throw new IllegalArgumentException("the seed watermark is never negative, got " + watermark);
        }
        return sql.run("seeding the inbox cursor at watermark " + watermark, session -> session.update(
                // No hole timer survives: the fresh instance's wait (below the seed) must not age the next hole.
                "UPDATE INBOX_CURSOR SET W = ?, HOLE_SINCE = NULL, SEEDED_AT = ?, UPDATED_AT = ?"
                        + " WHERE ID = 1 AND W = 0 AND SEEDED_AT IS NULL AND NOT EXISTS (SELECT 1 FROM PROC_STATE)",
                watermark, seededAt, seededAt) == 1);
    }

    private static IllegalStateException missingRow() {
        return new IllegalStateException("INBOX_CURSOR has no row 1: the schema was not created by the store's"
                + " migration (PgSchema.migrate, OracleSchema.migrate), or the row was deleted by hand"
                + " (re-insert (1, 0, NULL, NULL, <now in UTC>))");
    }
}
