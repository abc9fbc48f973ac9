package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.JdbcMessageArchive;
import io.msgx.adapter.jdbc.StoreJdbc;

import java.time.Instant;
import java.util.Objects;

/**
 * The archive of settled processing records on PostgreSQL: the shared statements ({@link JdbcMessageArchive}), with
 * a cleanup of archived shadows that re-checks the state so that it cannot use the shadow index twice (D-42).
 */
final class PgMessageArchive extends JdbcMessageArchive {

    /**
     * The oldest shadows archived before a cutoff (bound twice, around the limit), found through
     * {@code IX_PROC_STATE_SHADOW} and deleted by key: the re-check of the state is written so it cannot use that
     * index too, which a planner with statistics taken before the rows were archived ran as a nested loop re-reading
     * the batch per row (D-42).
     */
    static final String FORGET_ARCHIVED = "DELETE FROM PROC_STATE WHERE MSG_ID IN (SELECT d.MSG_ID FROM PROC_STATE d"
            + " WHERE d.STATE = 'ARCHIVED' AND d.UPDATED_AT < ? ORDER BY d.UPDATED_AT, d.MSG_ID LIMIT ?)"
            + " AND (STATE || '') = 'ARCHIVED' AND UPDATED_AT < ?";

    PgMessageArchive(StoreJdbc sql) {
        super(sql);
    }

    @Override
    public int forgetArchivedBefore(Instant cutoff, int limit) {
        Objects.requireNonNull(cutoff, "cutoff");
        StoreJdbc.requireLimit(limit);
        return sql.run("forgetting dedup shadows archived before " + cutoff,
                session -> session.update(FORGET_ARCHIVED, cutoff, limit, cutoff));
    }
}
