package io.msgx.adapter.jdbc;

import io.msgx.adapter.jdbc.SqlDialect.KeyLookup;
import io.msgx.pipeline.port.MessageReplays;
import io.msgx.pipeline.record.ErrorClass;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import static io.msgx.adapter.jdbc.ProcStateRows.distinct;
import static io.msgx.adapter.jdbc.ProcStateRows.lockWhere;

/**
 * Operators' replays on {@code PROC_STATE} ({@link MessageReplays}): the replayable rows locked, then reopened as one
 * unit ({@link ProcStateRows} says what the {@code PROC_STATE} ports share and guarantee).
 */
public final class JdbcMessageReplays implements MessageReplays {

    /** The statements' connection: auto-commit, or one transaction's. */
    private final StoreJdbc sql;

    public JdbcMessageReplays(StoreJdbc sql) {
        this.sql = sql;
    }

    @Override
    public List<Long> replay(Collection<Long> msgIds, Set<ErrorClass> replayable, Instant now) {
        Objects.requireNonNull(now, "now");
        var ids = distinct(msgIds);
        if (ids.isEmpty()) {
            return List.of();
        }
        var classes = replayable.stream().map(ErrorClass::name).sorted().toList();
        var failedOrDead = classes.isEmpty() ? "1 = 0" : "p.STATE IN ('FAILED', 'DEAD') AND p.ERROR_CLASS IN ("
                + String.join(", ", classes.stream().map(c -> "'" + c + "'").toList()) + ")";
        var replayableRow = "((" + failedOrDead + ") OR (p.STATE = 'SKIPPED' AND p.LAST_ERROR = '"
                + MessageReplays.UNKNOWN_FLIGHT + "') OR (p.STATE = 'SUCCEEDED' AND p.LAST_ERROR LIKE '%"
                + MessageReplays.UNKNOWN_FLIGHTS_OF_A_BATCH + "%'))";
        return sql.atomically("replaying " + ids.size() + " message(s) of classes " + classes, session -> {
            var replayed = lockWhere(sql, session, ids, replayableRow);
            for (var in : sql.oneOf("p.MSG_ID", KeyLookup.BY_INDEX, replayed)) {
                // The failures of the mark owed before the replay do not count against the one owed after it.
                // A batch applied in part keeps its outcome: it names the bodies the replay owes (D-118).
                session.update("UPDATE PROC_STATE p SET STATE = 'PENDING', ATTEMPTS = 0, NEXT_ATTEMPT_AT = NULL,"
                        + " ERROR_CLASS = NULL, LAST_ERROR = CASE WHEN p.STATE = 'SUCCEEDED' THEN p.LAST_ERROR END,"
                        + " BACKFILL_FAILING_SINCE = NULL, UPDATED_AT = ?"
                        + " WHERE " + in.sql(), now, in);
            }
            return replayed;
        }, replayed -> true);
    }
}
