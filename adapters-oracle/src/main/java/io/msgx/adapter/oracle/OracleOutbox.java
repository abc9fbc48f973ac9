package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.JdbcOutbox;
import io.msgx.adapter.jdbc.Sql;
import io.msgx.pipeline.store.OutboxEvent;
import io.msgx.pipeline.store.OutboxTarget;
import io.msgx.pipeline.store.ReferenceEvent;

import java.sql.SQLException;
import java.util.List;

/**
 * The outbox on Oracle: the shared statements ({@link JdbcOutbox}), and the rows kept one per FLID ({@code KAFKA:schd})
 * and one per reference record ({@code KAFKA:ref}) found by the virtual columns {@code SCHD_KEY} and {@code REF_KEY}
 * and their unique indexes (V7): {@code TARGET} and {@code PARTITION_KEY} have no index of their own, so a
 * confirmation named by them walked every pending projection through {@code IX_MSG_EVENT_DISPATCH}, for each of up to
 * 5,000 rows of a batch. Each such row is written with one {@code MERGE}, its {@code EVENT_ID} taken first.
 */
final class OracleOutbox extends JdbcOutbox {

    private static final int UPSERT_RACES_TOLERATED = 3;

    OracleOutbox(Sql sql) {
        super(sql);
    }

    @Override
    protected String projectionRow() {
        return "SCHD_KEY = ?";
    }

    @Override
    protected String referenceRow() {
        return "REF_KEY = ?";
    }

    @Override
    public boolean upsertProjection(OutboxEvent projection) {
        if (projection.target() != OutboxTarget.KAFKA_SCHD) {
            throw new IllegalArgumentException("upsertProjection takes KAFKA:schd rows; the "
                    + projection.target().code() + " event of FLID " + projection.partitionKey() + " goes through append");
        }
        var flid = projection.partitionKey().value();
        return sql.run("writing the projection of FLID " + flid + " version " + projection.stateVersion(), session -> {
            for (int race = 0; ; race++) {
                long eventId = session.nextValue("MSG_EVENT_SEQ");
                var type = projection.eventType().name();
                var payload = new Sql.LongText(projection.payload());
                try {
                    return session.update("MERGE INTO MSG_EVENT e USING dual ON (e.SCHD_KEY = ?)"
                                    + " WHEN MATCHED THEN UPDATE SET EVENT_ID = ?, EVENT_TYPE = ?, STATE_VERSION = ?,"
                                    + " MSG_ID = ?, PAYLOAD = ?, STATUS = 'PENDING', ATTEMPTS = 0, NEXT_ATTEMPT_AT = NULL,"
                                    + " LAST_ERROR = NULL, CREATED_AT = ?, SENT_AT = NULL WHERE e.STATE_VERSION <= ?"
                                    + " WHEN NOT MATCHED THEN INSERT (EVENT_ID, TARGET, PARTITION_KEY, EVENT_TYPE,"
                                    + " STATE_VERSION, MSG_ID, PAYLOAD, STATUS, ATTEMPTS, CREATED_AT)"
                                    + " VALUES (?, " + SCHD + ", ?, ?, ?, ?, ?, 'PENDING', 0, ?)",
                            flid,
                            eventId, type, projection.stateVersion(), projection.msgId(), payload,
                            projection.createdAt(), projection.stateVersion(),
                            eventId, flid, type, projection.stateVersion(), projection.msgId(), payload,
                            projection.createdAt()) == 1;
                } catch (SQLException e) {
                    // A concurrent first projection of the same FLID won between MERGE's probe and insert: merge again.
                    if (!OracleDialect.FAILURES.isUniqueViolation(e) || race + 1 >= UPSERT_RACES_TOLERATED) {
                        throw e;
                    }
                }
            }
        });
    }

    /**
     * One {@code MERGE} per change on the unique {@code REF_KEY} (V7), as {@link #upsertProjection} does per FLID: two
     * round trips a record, which reference messages (at most some thousand records, seldom) can afford.
     */
    @Override
    public void upsertReferences(List<ReferenceEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        sql.run("writing " + events.size() + " reference event(s) of message " + events.get(0).msgId(), session -> {
            for (var event : events) {
                var key = event.partitionKey();
                for (int race = 0; ; race++) {
                    long eventId = session.nextValue("MSG_EVENT_SEQ");
                    var type = event.eventType().name();
                    var payload = new Sql.LongText(event.payload());
                    try {
                        session.update("MERGE INTO MSG_EVENT e USING dual ON (e.REF_KEY = ?)"
                                        + " WHEN MATCHED THEN UPDATE SET EVENT_ID = ?, EVENT_TYPE = ?, STATE_VERSION = ?,"
                                        + " MSG_ID = ?, PAYLOAD = ?, STATUS = 'PENDING', ATTEMPTS = 0, NEXT_ATTEMPT_AT = NULL,"
                                        + " LAST_ERROR = NULL, CREATED_AT = ?, SENT_AT = NULL WHERE e.STATE_VERSION <= ?"
                                        + " WHEN NOT MATCHED THEN INSERT (EVENT_ID, TARGET, PARTITION_KEY, EVENT_TYPE,"
                                        + " STATE_VERSION, MSG_ID, PAYLOAD, STATUS, ATTEMPTS, CREATED_AT)"
                                        + " VALUES (?, " + REF + ", ?, ?, ?, ?, ?, 'PENDING', 0, ?)",
                                key,
                                eventId, type, event.msgId(), event.msgId(), payload, event.createdAt(), event.msgId(),
                                eventId, key, type, event.msgId(), event.msgId(), payload, event.createdAt());
                        break;
                    } catch (SQLException e) {
                        if (!OracleDialect.FAILURES.isUniqueViolation(e) || race + 1 >= UPSERT_RACES_TOLERATED) {
                            throw e;
                        }
                    }
                }
            }
            return null;
        });
    }
}
