package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.JdbcOutbox;
import io.msgx.adapter.jdbc.StoreJdbc;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.ReferenceEvent;

import java.sql.SQLException;
import java.time.Instant;
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

    OracleOutbox(StoreJdbc sql) {
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
        requireProjection(projection);
        var flid = projection.partitionKey().value();
        return sql.run("writing the projection of FLID " + flid + " version " + projection.stateVersion(),
                session -> merge(session, "SCHD_KEY", SCHD, flid, projection.eventType(), projection.stateVersion(),
                        projection.msgId(), projection.payload(), projection.createdAt()) == 1);
    }

    /**
     * One {@code MERGE} per change on the unique {@code REF_KEY} (V7), as {@link #upsertProjection} does per FLID: two
     * round trips a record, which reference messages (at most some thousand records, seldom) can afford. A reference
     * event's version is the message that changed the record.
     */
    @Override
    public void upsertReferences(List<ReferenceEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        sql.run("writing " + events.size() + " reference event(s) of message " + events.get(0).msgId(), session -> {
            for (var event : events) {
                merge(session, "REF_KEY", REF, event.partitionKey(), event.eventType(), event.msgId(), event.msgId(),
                        event.payload(), event.createdAt());
            }
            return null;
        });
    }

    /**
     * Writes the one row of {@code target} whose {@code keyColumn} is {@code key} as a new pending event, unless the
     * row holds a newer version; its row count. Should a concurrent first write of the same key win between
     * {@code MERGE}'s probe and its insert (a unique violation), it merges again.
     */
    private static int merge(StoreJdbc.Session session, String keyColumn, String target, String key,
                             OutboxEvent.EventType type, long version, long msgId, String payload, Instant createdAt)
            throws SQLException {
        var text = new StoreJdbc.LongText(payload);
        for (int race = 0; ; race++) {
            long eventId = session.nextValue("MSG_EVENT_SEQ");
            try {
                return session.update("MERGE INTO MSG_EVENT e USING dual ON (e." + keyColumn + " = ?)"
                                + " WHEN MATCHED THEN UPDATE SET EVENT_ID = ?, EVENT_TYPE = ?, STATE_VERSION = ?,"
                                + " MSG_ID = ?, PAYLOAD = ?, STATUS = 'PENDING', ATTEMPTS = 0,"
                                + " NEXT_ATTEMPT_AT = NULL, LAST_ERROR = NULL, CREATED_AT = ?, SENT_AT = NULL"
                                + " WHERE e.STATE_VERSION <= ?"
                                + " WHEN NOT MATCHED THEN INSERT (EVENT_ID, TARGET, PARTITION_KEY, EVENT_TYPE,"
                                + " STATE_VERSION, MSG_ID, PAYLOAD, STATUS, ATTEMPTS, CREATED_AT)"
                                + " VALUES (?, " + target + ", ?, ?, ?, ?, ?, 'PENDING', 0, ?)",
                        key,
                        eventId, type.name(), version, msgId, text, createdAt, version,
                        eventId, key, type.name(), version, msgId, text, createdAt);
            } catch (SQLException e) {
                if (!OracleDialect.FAILURES.isUniqueViolation(e) || race + 1 >= UPSERT_RACES_TOLERATED) {
                    throw e;
                }
            }
        }
    }
}
