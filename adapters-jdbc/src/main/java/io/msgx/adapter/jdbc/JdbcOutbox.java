package io.msgx.adapter.jdbc;

import io.msgx.adapter.jdbc.SqlDialect.KeyLookup;
import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.port.DeadLetters;
import io.msgx.pipeline.port.Notifications;
import io.msgx.pipeline.port.OutboxCleanup;
import io.msgx.pipeline.port.OutboxQueries;
import io.msgx.pipeline.port.Projections;
import io.msgx.pipeline.port.ReferenceNotifications;
import io.msgx.pipeline.record.DeadEvent;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.record.ReferenceEvent;
import io.msgx.pipeline.record.ReferenceOutboxEntry;

import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The outbox ports ({@link Notifications}, {@link Projections}, {@link ReferenceNotifications}, {@link DeadLetters},
 * {@link OutboxCleanup}, {@link OutboxQueries}) on {@code MSG_EVENT}, in the SQL both stores read alike. Every written
 * row takes a new {@code EVENT_ID} from {@code MSG_EVENT_SEQ} (taken first: Oracle 11g SQL has no {@code RETURNING}
 * into a result), so append order is {@code EVENT_ID} order. Each store writes its own upserts of the one row per
 * FLID ({@code KAFKA:schd}) and per reference record ({@code KAFKA:ref}), says how that row is found by its key
 * ({@link #projectionRow}, {@link #referenceRow}), and may replace a batched statement with a measured one of its own.
 *
 * <p>The delivery methods are single statements (used in auto-commit by the dispatcher). Every state change is one
 * conditional UPDATE whose row count is the answer, so a row that moved on meanwhile is never overwritten. A status
 * re-checked on a row already found by its key is written so that no index can serve it (D-42).
 *
 * <p>Empty texts on Oracle ('' is NULL there): an empty payload reads back as {@code ""}, except for a
 * {@code KAFKA:schd} tombstone, whose payload reads back as null; an empty delivery error reads back as null.
 */
public abstract class JdbcOutbox
        implements Notifications, Projections, ReferenceNotifications, DeadLetters, OutboxCleanup, OutboxQueries {

    /** Every column of {@code MSG_EVENT}, as {@link #entryOf} and {@link #referenceEntryOf} read them. */
    public static final String COLUMNS = "EVENT_ID, TARGET, PARTITION_KEY, EVENT_TYPE, STATE_VERSION, MSG_ID,"
            + " PAYLOAD, STATUS, ATTEMPTS, NEXT_ATTEMPT_AT, LAST_ERROR, CREATED_AT, SENT_AT";
    private static final String MSG = "'" + OutboxTarget.KAFKA_MSG.code() + "'";
    /** The projections' target, quoted. */
    protected static final String SCHD = "'" + OutboxTarget.KAFKA_SCHD.code() + "'";
    /** The reference events' target, quoted. */
    protected static final String REF = "'" + OutboxTarget.KAFKA_REF.code() + "'";
    /**
     * {@code STATUS = 'PENDING'} re-checked on a row already found by its key ({@link #foundRowHasStatus}).
     * Statistics gathered while hardly any row was pending (11g gathers them in its nightly window, so a backlog of a
     * day is always newer than they are) could otherwise lead the optimizer into {@code IX_MSG_EVENT_DISPATCH}, which
     * leads with {@code STATUS}, for every pending row, instead of the key.
     */
    private static final String STILL_PENDING = foundRowHasStatus("PENDING");
    /** Never tried, or its retry time has come. */
    private static final String DUE = "(e.NEXT_ATTEMPT_AT IS NULL OR e.NEXT_ATTEMPT_AT <= ?)";
    private static final int LAST_ERROR_WIDTH = 2000;

    /** The statements' connection: auto-commit, or one transaction's. */
    protected final StoreJdbc sql;

    protected JdbcOutbox(StoreJdbc sql) {
        this.sql = sql;
    }

    /** The condition that finds the {@code KAFKA:schd} row of one FLID, bound as its one parameter. */
    protected abstract String projectionRow();

    /** The condition that finds the {@code KAFKA:ref} row of one {@code RTYPE:RKEY}, bound as its one parameter. */
    protected abstract String referenceRow();

    @Override
    public long append(OutboxEvent notification) {
        requireNotification(notification);
        return sql.run("appending a notification of message " + notification.msgId() + " for FLID "
                + notification.partitionKey(), session -> {
            long eventId = session.nextValue("MSG_EVENT_SEQ");
            var values = notificationRow(notification);
            var row = new Object[values.length + 1];
            row[0] = eventId;
            System.arraycopy(values, 0, row, 1, values.length);
            session.update(NOTIFICATION_INSERT + "?" + NOTIFICATION_VALUES, row);
            return eventId;
        });
    }

    /**
     * One JDBC batch, each row taking {@code MSG_EVENT_SEQ.NEXTVAL} in the {@code INSERT} itself: the rows are
     * executed in the order given on one session, so their {@code EVENT_ID}s ascend in that order (on RAC the
     * sequence must be {@code ORDER} or the session's instance cache keeps them ascending, as for {@link #append}).
     */
    @Override
    public void appendAll(List<OutboxEvent> notifications) {
        if (notifications.isEmpty()) {
            return;
        }
        notifications.forEach(JdbcOutbox::requireNotification);
        sql.run("appending " + notifications.size() + " notification(s) of message " + notifications.get(0).msgId(),
                session -> {
                    try (var batch = session.batch(NOTIFICATION_INSERT + sql.dialect().sequenceNext("MSG_EVENT_SEQ")
                            + NOTIFICATION_VALUES)) {
                        for (var notification : notifications) {
                            batch.add(notificationRow(notification));
                        }
                        return batch.execute();
                    }
                });
    }

    /** A notification's INSERT up to its EVENT_ID value, which follows: a bound key or the sequence itself. */
    private static final String NOTIFICATION_INSERT = "INSERT INTO MSG_EVENT (EVENT_ID, TARGET, PARTITION_KEY,"
            + " EVENT_TYPE, STATE_VERSION, MSG_ID, PAYLOAD, STATUS, ATTEMPTS, CREATED_AT) VALUES (";
    private static final String NOTIFICATION_VALUES = ", ?, ?, ?, ?, ?, ?, 'PENDING', 0, ?)";

    /** The values after EVENT_ID. */
    private static Object[] notificationRow(OutboxEvent notification) {
        return new Object[]{notification.target().code(), notification.partitionKey().value(),
                notification.eventType().name(), notification.stateVersion(), notification.msgId(),
                new StoreJdbc.LongText(notification.payload()), notification.createdAt()};
    }

    protected static void requireNotification(OutboxEvent notification) {
        if (notification.target() != OutboxTarget.KAFKA_MSG) {
            throw new IllegalArgumentException("append takes KAFKA:msg notifications; the "
                    + notification.target().code() + " row of FLID " + notification.partitionKey()
                    + " goes through upsertProjection");
        }
    }

    protected static void requireProjection(OutboxEvent projection) {
        if (projection.target() != OutboxTarget.KAFKA_SCHD) {
            throw new IllegalArgumentException("upsertProjection takes KAFKA:schd rows; the "
                    + projection.target().code() + " event of FLID " + projection.partitionKey()
                    + " goes through append");
        }
    }

    @Override
    public List<ReferenceOutboxEntry> dueReferences(Instant now, int limit) {
        StoreJdbc.requireLimit(limit);
        return sql.run("claiming the due reference events", session -> session.list(sql.firstRows(
                        "SELECT " + COLUMNS + " FROM MSG_EVENT e WHERE e.STATUS = 'PENDING' AND e.TARGET = "
                                + REF + " AND " + DUE + " ORDER BY e.EVENT_ID"),
                JdbcOutbox::referenceEntryOf, now, limit));
    }

    @Override
    public Optional<ReferenceOutboxEntry> referenceEvent(String type, String key) {
        return sql.run("reading the reference event of " + type + ":" + key, session -> session.one(
                "SELECT " + COLUMNS + " FROM MSG_EVENT WHERE " + referenceRow(), JdbcOutbox::referenceEntryOf,
                type + ":" + key));
    }

    @Override
    public int markReferencesSent(Collection<Long> eventIds, Instant sentAt) {
        return markSentByIds(REF, "reference event(s)", eventIds, sentAt);
    }

    /** The reference data's entry of the current row (columns {@link #COLUMNS}). */
    public static ReferenceOutboxEntry referenceEntryOf(StoreJdbc.Row row) throws SQLException {
        var type = OutboxEvent.EventType.valueOf(row.text("EVENT_TYPE"));
        // '' was stored as NULL: only a tombstone really has no payload.
        var payload = type == OutboxEvent.EventType.TOMBSTONE ? row.text("PAYLOAD") : row.textOrEmpty("PAYLOAD");
        var event = ReferenceEvent.of(row.text("PARTITION_KEY"), type, row.longValue("MSG_ID"), payload,
                row.instant("CREATED_AT"));
        return new ReferenceOutboxEntry(row.longValue("EVENT_ID"), event,
                OutboxEntry.DeliveryStatus.valueOf(row.text("STATUS")), row.intValue("ATTEMPTS"),
                row.instant("NEXT_ATTEMPT_AT"), row.text("LAST_ERROR"), row.instant("SENT_AT"));
    }

    @Override
    public List<OutboxEntry> pending(OutboxTarget target, int limit) {
        StoreJdbc.requireLimit(limit);
        if (target == OutboxTarget.KAFKA_REF) {
            throw new IllegalArgumentException("KAFKA:ref rows are read with dueReferences or referenceEvent");
        }
        return sql.run("reading pending " + target.code() + " events", session -> session.list(sql.firstRows(
                        "SELECT " + COLUMNS + " FROM MSG_EVENT WHERE STATUS = 'PENDING' AND TARGET = ?"
                                + " ORDER BY EVENT_ID"),
                JdbcOutbox::entryOf, target.code(), limit));
    }

    @Override
    public List<OutboxEntry> notificationsOf(FlightId flid, int limit) {
        StoreJdbc.requireLimit(limit);
        return sql.run("reading the notifications of FLID " + flid.value(), session -> session.list(sql.firstRows(
                        "SELECT " + COLUMNS + " FROM MSG_EVENT WHERE TARGET = " + MSG + " AND PARTITION_KEY = ?"
                                + " ORDER BY EVENT_ID DESC"),
                JdbcOutbox::entryOf, flid.value(), limit));
    }

    @Override
    public List<OutboxEntry> dueNotifications(Instant now, int limit, long afterEventId) {
        StoreJdbc.requireLimit(limit);
        return sql.run("claiming the due notifications", session -> session.list(sql.firstRows(
                        "SELECT " + COLUMNS + " FROM MSG_EVENT e WHERE e.STATUS = 'PENDING' AND e.TARGET = " + MSG
                                // A FLID whose head failed before yields only that head, once it is due (D-35).
                                + " AND (e.NEXT_ATTEMPT_AT <= ? OR e.PARTITION_KEY NOT IN (SELECT r.PARTITION_KEY"
                                + " FROM MSG_EVENT r WHERE r.NEXT_ATTEMPT_AT IS NOT NULL AND r.STATUS = 'PENDING'"
                                + " AND r.TARGET = " + MSG + "))"
                                + " AND e.EVENT_ID > ? ORDER BY e.EVENT_ID"),
                JdbcOutbox::entryOf, now, afterEventId, limit));
    }

    @Override
    public List<OutboxEntry> dueProjections(Instant now, int limit, long afterEventId) {
        StoreJdbc.requireLimit(limit);
        return sql.run("claiming the due projections", session -> session.list(sql.firstRows(
                        "SELECT " + COLUMNS + " FROM MSG_EVENT e WHERE e.STATUS = 'PENDING' AND e.TARGET = " + SCHD
                                + " AND " + DUE + " AND e.EVENT_ID > ? ORDER BY e.EVENT_ID"),
                JdbcOutbox::entryOf, now, afterEventId, limit));
    }

    @Override
    public boolean markSent(long eventId, Instant sentAt) {
        return sql.run("confirming the delivery of notification " + eventId, session -> session.update(
                "UPDATE MSG_EVENT SET STATUS = 'SENT', SENT_AT = ? WHERE EVENT_ID = ? AND TARGET = " + MSG
                        + " AND " + STILL_PENDING, sentAt, eventId) == 1);
    }

    /** {@link #markSent} as one {@code UPDATE} per chunk of keys; its row count is the answer. */
    @Override
    public int markAllSent(Collection<Long> eventIds, Instant sentAt) {
        return markSentByIds(MSG, "notification(s)", eventIds, sentAt);
    }

    /**
     * Confirms the pending rows of {@code target} (the quoted literal) among {@code eventIds}, one {@code UPDATE} per
     * chunk of keys; returns how many were still pending and are now {@code SENT}.
     */
    private int markSentByIds(String target, String what, Collection<Long> eventIds, Instant sentAt) {
        if (eventIds.isEmpty()) {
            return 0;
        }
        return sql.run("confirming the delivery of " + eventIds.size() + " " + what, session -> {
            int confirmed = 0;
            for (var in : sql.oneOf("EVENT_ID", KeyLookup.BY_JOIN, new LinkedHashSet<>(eventIds))) {
                confirmed += session.update("UPDATE MSG_EVENT SET STATUS = 'SENT', SENT_AT = ? WHERE " + in.sql()
                        + " AND TARGET = " + target + " AND " + STILL_PENDING, sentAt, in);
            }
            return confirmed;
        });
    }

    /** {@link #markProjectionSent}'s statement as one JDBC batch; a row that changed nothing was replaced meanwhile. */
    @Override
    public Set<FlightId> markProjectionsSent(Map<FlightId, Long> sentVersions, Instant sentAt) {
        if (sentVersions.isEmpty()) {
            return Set.of();
        }
        var flids = List.copyOf(sentVersions.keySet());
        return sql.run("confirming the delivery of " + flids.size() + " projection(s)", session -> {
            int[] counts;
            try (var batch = session.batch(projectionConfirmation())) {
                for (var flid : flids) {
                    batch.add(sentAt, flid.value(), sentVersions.get(flid));
                }
                counts = batch.execute();
            }
            var confirmed = new LinkedHashSet<FlightId>();
            for (int i = 0; i < flids.size(); i++) {
                if (counts[i] < 0) {
                    throw new SQLException("the driver reported no row count (" + counts[i] + ") for a batched row; "
                            + "use ojdbc 12c or later, which reports them");
                }
                if (counts[i] == 1) {
                    confirmed.add(flids.get(i));
                }
            }
            return confirmed;
        });
    }

    /**
     * The confirmation of one projection, found by {@link #projectionRow}; bound: sent at, FLID, version. Public for
     * the plan checks of the tests.
     */
    public String projectionConfirmation() {
        return "UPDATE MSG_EVENT SET STATUS = 'SENT', SENT_AT = ? WHERE " + projectionRow() + " AND STATE_VERSION = ?"
                + " AND " + STILL_PENDING;
    }

    @Override
    public boolean markProjectionSent(FlightId flid, long stateVersion, Instant sentAt) {
        return sql.run("confirming the delivery of the projection of FLID " + flid + " version " + stateVersion,
                session -> session.update(projectionConfirmation(), sentAt, flid.value(), stateVersion) == 1);
    }

    @Override
    public boolean recordDeliveryFailure(long eventId, String error, Instant nextAttemptAt, boolean dead, Instant now) {
        return sql.run("recording a failed delivery of event " + eventId, session -> session.update(
                "UPDATE MSG_EVENT SET STATUS = ?, ATTEMPTS = ATTEMPTS + 1, LAST_ERROR = ?, NEXT_ATTEMPT_AT = ?"
                        + " WHERE EVENT_ID = ? AND " + STILL_PENDING,
                dead ? "DEAD" : "PENDING", sql.fitted(error, LAST_ERROR_WIDTH), nextAttemptAt, eventId) == 1);
    }

    @Override
    public int deleteSentBefore(Instant cutoff, int limit) {
        // Checked again on the row deleted: a projection re-opened by a newer version meanwhile stays. On Oracle the
        // batch is found through IX_MSG_EVENT_SENT; PostgreSQL, which has no such index (D-49), walks its key instead.
        return sql.deleteFirst("deleting delivered events sent before " + cutoff, "MSG_EVENT", "EVENT_ID",
                foundRowHasStatus("SENT") + " AND SENT_AT < ? AND CREATED_AT < ?", "SENT_AT", limit, cutoff, cutoff);
    }

    /**
     * {@code STATUS = 'status'} for a row already found by its key, written so that no index can serve it (D-42; in
     * Oracle {@code ||} with {@code ''}, which is NULL, yields the other operand).
     */
    private static String foundRowHasStatus(String status) {
        return "STATUS || '' = '" + status + "'";
    }

    /**
     * One grouped look-up of the pending rows whose {@code NEXT_ATTEMPT_AT} (set by a failed delivery, a resend or a
     * re-armed projection) has come: on Oracle a range of {@code IX_MSG_EVENT_MSG_RETRYING}, which leads with it (no
     * plan check backs this on Oracle); PostgreSQL overrides it with a look-up in its partial index (D-47).
     */
    @Override
    public Optional<DueRetries> dueRetries(Instant now) {
        return sql.run("finding where the due retries begin", session -> {
            var first = session.list("SELECT TARGET, MIN(EVENT_ID) AS FIRST_ID FROM MSG_EVENT WHERE STATUS = 'PENDING'"
                            + " AND NEXT_ATTEMPT_AT <= ? AND TARGET IN (" + MSG + ", " + SCHD + ") GROUP BY TARGET",
                    row -> Map.entry(row.text("TARGET"), row.longValue("FIRST_ID")), now)
                    .stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
            return Optional.of(new DueRetries(first.getOrDefault(OutboxTarget.KAFKA_MSG.code(), DueRetries.NONE),
                    first.getOrDefault(OutboxTarget.KAFKA_SCHD.code(), DueRetries.NONE)));
        });
    }

    @Override
    public DeliveryBacklog deliveryBacklog() {
        return sql.run("counting the delivery backlog", session -> session.one(
                "SELECT COUNT(CASE WHEN STATUS = 'PENDING' THEN 1 END) AS PENDING,"
                        + " COUNT(CASE WHEN STATUS = 'DEAD' THEN 1 END) AS DEAD,"
                        + " MIN(CASE WHEN STATUS = 'PENDING' THEN CREATED_AT END) AS OLDEST_PENDING"
                        + " FROM MSG_EVENT WHERE STATUS IN ('PENDING', 'DEAD')",
                row -> new DeliveryBacklog(row.longValue("PENDING"), row.longValue("DEAD"),
                        row.instant("OLDEST_PENDING"))).orElseThrow());
    }

    @Override
    public List<DeadEvent> deadEvents(int limit) {
        StoreJdbc.requireLimit(limit);
        return sql.run("listing the dead events", session -> session.list(sql.firstRows(
                        "SELECT EVENT_ID, TARGET, PARTITION_KEY, STATE_VERSION, ATTEMPTS, LAST_ERROR, CREATED_AT,"
                                + " NEXT_ATTEMPT_AT FROM MSG_EVENT WHERE STATUS = 'DEAD' ORDER BY EVENT_ID"),
                row -> new DeadEvent(row.longValue("EVENT_ID"), OutboxTarget.ofCode(row.text("TARGET")),
                        row.text("PARTITION_KEY"), row.longValue("STATE_VERSION"), row.intValue("ATTEMPTS"),
                        row.text("LAST_ERROR"), row.instant("CREATED_AT"), row.instant("NEXT_ATTEMPT_AT")),
                limit));
    }

    /**
     * Per chunk of keys, the {@code DEAD} rows are locked, then made pending by one {@code UPDATE} that judges every
     * row as it was before it (11g has no {@code RETURNING} into a result list): a notification behind an older pending
     * one of its FLID gets no {@code NEXT_ATTEMPT_AT}, every other resent row {@code now} (D-67).
     */
    @Override
    public List<Long> resendDead(Collection<Long> eventIds, Instant now) {
        var time = sql.dialect().timestampType();
        return onDeadRows("resending " + eventIds.size() + " dead event(s)", eventIds, (session, dead) -> {
            session.update("UPDATE MSG_EVENT e SET STATUS = 'PENDING', ATTEMPTS = 0, SENT_AT = NULL,"
                    + " NEXT_ATTEMPT_AT = CASE WHEN e.TARGET = " + MSG + " AND EXISTS (SELECT 1 FROM MSG_EVENT p"
                    + " WHERE p.TARGET = " + MSG + " AND p.PARTITION_KEY = e.PARTITION_KEY"
                    + " AND p.STATUS = 'PENDING' AND p.EVENT_ID < e.EVENT_ID) THEN CAST(NULL AS " + time
                    + ") ELSE CAST(? AS " + time + ") END"
                    + " WHERE " + dead.sql() + " AND e.STATUS || '' = 'DEAD'", now, dead);
        });
    }

    @Override
    public List<Long> purgeDead(Collection<Long> eventIds) {
        return onDeadRows("purging " + eventIds.size() + " dead event(s)", eventIds, (session, dead) -> session.update(
                "DELETE FROM MSG_EVENT WHERE " + dead.sql() + " AND " + foundRowHasStatus("DEAD"), dead));
    }

    /** What {@link #onDeadRows} does to the {@code DEAD} rows of one chunk, locked. */
    @FunctionalInterface
    private interface DeadRowsChange {
        void apply(StoreJdbc.Session session, StoreJdbc.Condition dead) throws SQLException;
    }

    /**
     * {@code change} applied to the {@code DEAD} rows among {@code eventIds}, a chunk of keys at a time, each chunk's
     * rows locked ({@code FOR UPDATE}) in the same unit as the change, so a row another operator changes meanwhile is
     * neither touched nor reported; the IDs changed, ascending.
     */
    private List<Long> onDeadRows(String operation, Collection<Long> eventIds, DeadRowsChange change) {
        if (eventIds.isEmpty()) {
            return List.of();
        }
        return sql.atomically(operation, session -> {
            var changed = new java.util.TreeSet<Long>();
            for (var in : sql.oneOf("EVENT_ID", KeyLookup.BY_JOIN, new LinkedHashSet<>(eventIds))) {
                var dead = session.list("SELECT EVENT_ID FROM MSG_EVENT WHERE " + in.sql() + " AND "
                        + foundRowHasStatus("DEAD") + " FOR UPDATE", row -> row.longValue("EVENT_ID"), in);
                if (!dead.isEmpty()) {
                    change.apply(session, sql.oneOf("EVENT_ID", KeyLookup.BY_JOIN, dead).get(0));
                    changed.addAll(dead);
                }
            }
            return List.copyOf(changed);
        }, changed -> true);
    }

    @Override
    public Optional<OutboxEntry> rearmProjection(FlightId flid, Instant now) {
        return sql.run("re-arming the projection of FLID " + flid.value(), session -> {
            int rearmed = session.update("UPDATE MSG_EVENT SET STATUS = 'PENDING', ATTEMPTS = 0, NEXT_ATTEMPT_AT = ?,"
                    + " LAST_ERROR = NULL, SENT_AT = NULL WHERE " + projectionRow() + " AND STATUS IN ('SENT', 'DEAD')",
                    now, flid.value());
            return rearmed == 0 ? Optional.<OutboxEntry>empty() : session.one("SELECT " + COLUMNS
                    + " FROM MSG_EVENT WHERE " + projectionRow(), JdbcOutbox::entryOf, flid.value());
        });
    }

    /** The entry of the current row (columns {@link #COLUMNS}). */
    public static OutboxEntry entryOf(StoreJdbc.Row row) throws SQLException {
        var target = OutboxTarget.ofCode(row.text("TARGET"));
        var type = OutboxEvent.EventType.valueOf(row.text("EVENT_TYPE"));
        // '' was stored as NULL: only a projection tombstone really has no payload.
        var payload = target == OutboxTarget.KAFKA_SCHD && type == OutboxEvent.EventType.TOMBSTONE
                ? row.text("PAYLOAD")
                : row.textOrEmpty("PAYLOAD");
        var event = new OutboxEvent(target, FlightId.of(row.text("PARTITION_KEY")), type,
                row.longValue("STATE_VERSION"), row.longValue("MSG_ID"), payload, row.instant("CREATED_AT"));
        return new OutboxEntry(row.longValue("EVENT_ID"), event,
                OutboxEntry.DeliveryStatus.valueOf(row.text("STATUS")), row.intValue("ATTEMPTS"),
                row.instant("NEXT_ATTEMPT_AT"), row.text("LAST_ERROR"), row.instant("SENT_AT"));
    }
}
