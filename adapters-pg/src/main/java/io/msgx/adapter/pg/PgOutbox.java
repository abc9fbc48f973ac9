package io.msgx.adapter.pg;

import io.msgx.adapter.pg.jooq.tables.records.MsgEventRecord;
import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.port.DeadLetters;
import io.msgx.pipeline.port.Notifications;
import io.msgx.pipeline.port.OutboxCleanup;
import io.msgx.pipeline.port.OutboxQueries;
import io.msgx.pipeline.port.Projections;
import io.msgx.pipeline.port.ReferenceNotifications;
import io.msgx.pipeline.store.ColumnText;
import io.msgx.pipeline.store.DeadEvent;
import io.msgx.pipeline.store.OutboxEntry;
import io.msgx.pipeline.store.OutboxEvent;
import io.msgx.pipeline.store.OutboxTarget;
import io.msgx.pipeline.store.ReferenceEvent;
import io.msgx.pipeline.store.ReferenceOutboxEntry;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.InsertSetMoreStep;
import org.jooq.Query;
import org.jooq.Record1;
import org.jooq.Record2;
import org.jooq.Record4;
import org.jooq.ResultQuery;
import org.jooq.exception.DataAccessException;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static io.msgx.adapter.pg.jooq.Sequences.MSG_EVENT_SEQ;
import static io.msgx.adapter.pg.jooq.Tables.MSG_EVENT;
import static org.jooq.impl.DSL.castNull;
import static org.jooq.impl.DSL.count;
import static org.jooq.impl.DSL.exists;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.min;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.selectOne;
import static org.jooq.impl.DSL.table;
import static org.jooq.impl.DSL.val;
import static org.jooq.impl.DSL.when;

/**
 * The outbox ports ({@link Notifications}, {@link Projections}, {@link ReferenceNotifications}, {@link DeadLetters},
 * {@link OutboxCleanup}, {@link OutboxQueries}) on {@code MSG_EVENT}, bound to one transaction. Every written row
 * takes a new {@code EVENT_ID} from {@code MSG_EVENT_SEQ}, so append order is {@code EVENT_ID} order; the
 * {@code KAFKA:schd} projection keeps one row per FLID through the partial unique index on {@code PARTITION_KEY}.
 *
 * <p>The delivery methods are single statements (used in auto-commit by the dispatcher). Every state change is one
 * conditional UPDATE whose row count is the answer, so a row that moved on meanwhile (confirmed, dead, or a
 * projection replaced by a newer version) is never overwritten. Status and target constants are rendered inline,
 * so the partial indexes of the claims match even under a generic (prepared) plan.
 */
final class PgOutbox
        implements Notifications, Projections, ReferenceNotifications, DeadLetters, OutboxCleanup, OutboxQueries {

    private static final String PENDING = OutboxEntry.DeliveryStatus.PENDING.name();
    private static final Field<String> PENDING_STATUS = inline(PENDING);
    private static final String SENT = OutboxEntry.DeliveryStatus.SENT.name();
    private static final Field<String> SENT_STATUS = inline(SENT);
    private static final Field<String> DEAD_STATUS = inline(OutboxEntry.DeliveryStatus.DEAD.name());
    private static final Field<String> MSG_TARGET = inline(OutboxTarget.KAFKA_MSG.code());
    private static final Field<String> SCHD_TARGET = inline(OutboxTarget.KAFKA_SCHD.code());
    private static final Field<String> REF_TARGET = inline(OutboxTarget.KAFKA_REF.code());
    private static final int LAST_ERROR_WIDTH = MSG_EVENT.LAST_ERROR.getDataType().length();

    /** The columns of an event the pump writes; the rest start as every new event does. */
    private static final List<Field<?>> EVENT_COLUMNS = List.of(MSG_EVENT.TARGET, MSG_EVENT.PARTITION_KEY,
            MSG_EVENT.EVENT_TYPE, MSG_EVENT.STATE_VERSION, MSG_EVENT.MSG_ID, MSG_EVENT.PAYLOAD, MSG_EVENT.CREATED_AT);
    private static final String INSERT_EVENTS = """
            insert into "msg_event" ("event_id", %1$s, "status", "attempts")
            select nextval('msg_event_seq'), %2$s, '%3$s', 0 from %4$s""".formatted(
            EVENT_COLUMNS.stream().map(UnnestRows::quoted).collect(Collectors.joining(", ")),
            EVENT_COLUMNS.stream().map(column -> "r." + UnnestRows.quoted(column)).collect(Collectors.joining(", ")),
            PENDING, UnnestRows.source(EVENT_COLUMNS, "r"));
    /** Projection rows: each FLID's row is replaced, as a new pending event, only by a version not older than its own. */
    private static final String REPLACING_OLDER = """

            on conflict ("partition_key") where "target" = '%s' do update set "event_id" = excluded."event_id",
                "event_type" = excluded."event_type", "state_version" = excluded."state_version",
                "msg_id" = excluded."msg_id", "payload" = excluded."payload", "status" = '%s', "attempts" = 0,
                "next_attempt_at" = null, "last_error" = null, "created_at" = excluded."created_at", "sent_at" = null
            where "msg_event"."state_version" <= excluded."state_version"
            """.formatted(
            OutboxTarget.KAFKA_SCHD.code(), PENDING);
    /** Reference rows (D-60): each RTYPE:RKEY's row is replaced, as a new pending event, by a change not older than its own. */
    private static final String REPLACING_OLDER_REFERENCE = REPLACING_OLDER.replace(
            "'" + OutboxTarget.KAFKA_SCHD.code() + "'", "'" + OutboxTarget.KAFKA_REF.code() + "'");

    private final DSLContext dsl;

    PgOutbox(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public long append(OutboxEvent notification) {
        requireNotification(notification);
        return StoreOperation.run("appending a notification of message " + notification.msgId() + " for FLID "
                + notification.partitionKey(), () -> insert(notification)
                .returningResult(MSG_EVENT.EVENT_ID)
                .fetchSingle()
                .value1());
    }

    @Override
    public boolean upsertProjection(OutboxEvent projection) {
        requireProjection(projection);
        return StoreOperation.run("writing the projection of FLID " + projection.partitionKey() + " version "
                + projection.stateVersion(), () -> insertAll(List.of(projection), REPLACING_OLDER) == 1);
    }

    @Override
    public void appendAll(List<OutboxEvent> notifications) {
        if (notifications.isEmpty()) {
            return;
        }
        notifications.forEach(PgOutbox::requireNotification);
        StoreOperation.run("appending " + notifications.size() + " notification(s) of messages "
                        + notifications.get(0).msgId() + " to " + notifications.get(notifications.size() - 1).msgId(),
                () -> insertAll(notifications, ""));
    }

    @Override
    public void upsertProjections(Collection<OutboxEvent> projections) {
        if (projections.isEmpty()) {
            return;
        }
        projections.forEach(PgOutbox::requireProjection);
        StoreOperation.run("writing the projections of " + projections.size() + " flight(s)",
                () -> insertAll(List.copyOf(projections), REPLACING_OLDER));
    }

    private static void requireNotification(OutboxEvent notification) {
        if (notification.target() != OutboxTarget.KAFKA_MSG) {
            throw new IllegalArgumentException("append takes KAFKA:msg notifications; the " + notification.target().code()
                    + " row of FLID " + notification.partitionKey() + " goes through upsertProjection");
        }
    }

    private static void requireProjection(OutboxEvent projection) {
        if (projection.target() != OutboxTarget.KAFKA_SCHD) {
            throw new IllegalArgumentException("upsertProjection takes KAFKA:schd rows; the "
                    + projection.target().code() + " event of FLID " + projection.partitionKey() + " goes through append");
        }
    }

    @Override
    public void upsertReferences(List<ReferenceEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        var rows = events.stream().map(event -> new Object[] {OutboxTarget.KAFKA_REF.code(), event.partitionKey(),
                event.eventType().name(), event.msgId(), event.msgId(), event.payload(), event.createdAt()}).toList();
        StoreOperation.run("writing " + events.size() + " reference event(s) of message " + events.get(0).msgId(),
                () -> UnnestRows.execute(dsl, INSERT_EVENTS + REPLACING_OLDER_REFERENCE, List.of(),
                        EVENT_COLUMNS.size(), rows));
    }

    @Override
    public List<ReferenceOutboxEntry> dueReferences(Instant now, int limit) {
        requireBatch(limit);
        return StoreOperation.run("claiming the due reference events", () -> referenceEntries(dsl
                .selectFrom(MSG_EVENT)
                .where(MSG_EVENT.STATUS.eq(PENDING_STATUS))
                .and(MSG_EVENT.TARGET.eq(REF_TARGET))
                .and(isDue(now))
                .orderBy(MSG_EVENT.EVENT_ID)
                .limit(limit)));
    }

    @Override
    public Optional<ReferenceOutboxEntry> referenceEvent(String type, String key) {
        return StoreOperation.run("reading the reference event of " + type + ":" + key, () -> referenceEntries(dsl
                .selectFrom(MSG_EVENT)
                .where(MSG_EVENT.TARGET.eq(REF_TARGET))
                .and(MSG_EVENT.PARTITION_KEY.eq(type + ":" + key))).stream().findFirst());
    }

    @Override
    public int markReferencesSent(Collection<Long> eventIds, Instant sentAt) {
        if (eventIds.isEmpty()) {
            return 0;
        }
        return StoreOperation.run("confirming the delivery of " + eventIds.size() + " reference event(s)", () -> dsl
                .update(MSG_EVENT)
                .set(MSG_EVENT.STATUS, SENT_STATUS)
                .set(MSG_EVENT.SENT_AT, sentAt)
                .where(KeySet.contains(MSG_EVENT.EVENT_ID, eventIds.toArray(Long[]::new)))
                .and(MSG_EVENT.TARGET.eq(REF_TARGET))
                .and(stillPending())
                .execute());
    }

    /** The {@code KAFKA:ref} rows {@code query} selects, as {@link #entries} reads the others. */
    private static List<ReferenceOutboxEntry> referenceEntries(ResultQuery<MsgEventRecord> query) {
        return read(query, "reference outbox rows", rows -> new ReferenceOutboxEntry(rows.getLong(EVENT_ID),
                ReferenceEvent.of(rows.getString(PARTITION_KEY), OutboxEvent.EventType.valueOf(rows.getString(EVENT_TYPE)),
                        rows.getLong(MSG_ID), rows.getString(PAYLOAD), instant(rows, CREATED_AT)),
                OutboxEntry.DeliveryStatus.valueOf(rows.getString(STATUS)), rows.getInt(ATTEMPTS),
                instant(rows, NEXT_ATTEMPT_AT), rows.getString(LAST_ERROR), instant(rows, SENT_AT)));
    }

    @Override
    public List<OutboxEntry> pending(OutboxTarget target, int limit) {
        requireBatch(limit);
        if (target == OutboxTarget.KAFKA_REF) {
            throw new IllegalArgumentException("KAFKA:ref rows are read with dueReferences or referenceEvent");
        }
        return StoreOperation.run("reading pending " + target.code() + " events", () -> entries(dsl
                .selectFrom(MSG_EVENT)
                .where(MSG_EVENT.STATUS.eq(PENDING))
                .and(MSG_EVENT.TARGET.eq(target.code()))
                .orderBy(MSG_EVENT.EVENT_ID)
                .limit(limit)));
    }

    @Override
    public List<OutboxEntry> notificationsOf(FlightId flid, int limit) {
        requireBatch(limit);
        return StoreOperation.run("reading the notifications of FLID " + flid.value(), () -> entries(dsl
                .selectFrom(MSG_EVENT)
                .where(MSG_EVENT.TARGET.eq(MSG_TARGET))
                .and(MSG_EVENT.PARTITION_KEY.eq(flid.value()))
                .orderBy(MSG_EVENT.EVENT_ID.desc())
                .limit(limit)));
    }

    @Override
    public List<OutboxEntry> dueNotifications(Instant now, int limit, long afterEventId) {
        requireBatch(limit);
        // Every pending notification in EVENT_ID order (IX_MSG_EVENT_DISPATCH, read only as far as the limit), except
        // for FLIDs whose head failed before: of those only the head, once it is due (D-35). Only a head that failed
        // has NEXT_ATTEMPT_AT set (IX_MSG_EVENT_MSG_RETRYING), so the sub-query stays small and is hashed once.
        var retryingFlids = select(MSG_EVENT.PARTITION_KEY).from(MSG_EVENT)
                .where(MSG_EVENT.NEXT_ATTEMPT_AT.isNotNull())
                .and(MSG_EVENT.STATUS.eq(PENDING_STATUS))
                .and(MSG_EVENT.TARGET.eq(MSG_TARGET));
        return StoreOperation.run("claiming the due notifications", () -> entries(dsl
                .selectFrom(MSG_EVENT)
                .where(MSG_EVENT.STATUS.eq(PENDING_STATUS))
                .and(MSG_EVENT.TARGET.eq(MSG_TARGET))
                .and(MSG_EVENT.NEXT_ATTEMPT_AT.le(now).or(MSG_EVENT.PARTITION_KEY.notIn(retryingFlids)))
                .and(MSG_EVENT.EVENT_ID.gt(afterEventId))
                .orderBy(MSG_EVENT.EVENT_ID)
                .limit(limit)));
    }

    @Override
    public List<OutboxEntry> dueProjections(Instant now, int limit, long afterEventId) {
        requireBatch(limit);
        return StoreOperation.run("claiming the due projections", () -> entries(dsl
                .selectFrom(MSG_EVENT)
                .where(MSG_EVENT.STATUS.eq(PENDING_STATUS))
                .and(MSG_EVENT.TARGET.eq(SCHD_TARGET))
                .and(isDue(now))
                .and(MSG_EVENT.EVENT_ID.gt(afterEventId))
                .orderBy(MSG_EVENT.EVENT_ID)
                .limit(limit)));
    }

    /**
     * One statement, two look-ups in {@code IX_MSG_EVENT_RETRY_DUE} (V7), which holds only the rows waiting for a
     * retry. Its predicate is written here word for word ({@code STATUS || ''}, {@link KeySet#recheck}): no other index
     * can serve that comparison, so lagging statistics cannot send the planner through every pending row of
     * {@code IX_MSG_EVENT_DISPATCH} instead (0.5 s at 380,000 pending rows, measured; D-47).
     */
    @Override
    public Optional<DueRetries> dueRetries(Instant now) {
        return StoreOperation.run("finding where the due retries begin", () -> {
            var first = findingDueRetries(now).fetchSingle();
            return Optional.of(new DueRetries(orNone(first.value1()), orNone(first.value2())));
        });
    }

    /** The statement of {@link #dueRetries}. Package-private for the plan checks of the tests. */
    ResultQuery<Record2<Long, Long>> findingDueRetries(Instant now) {
        return dsl.select(firstDueRetry(MSG_TARGET, now), firstDueRetry(SCHD_TARGET, now));
    }

    /** The lowest EVENT_ID of {@code target} waiting for a retry that is due at {@code now}; null when none. */
    private static Field<Long> firstDueRetry(Field<String> target, Instant now) {
        return field(select(min(MSG_EVENT.EVENT_ID)).from(MSG_EVENT)
                .where(MSG_EVENT.TARGET.eq(target))
                .and(MSG_EVENT.NEXT_ATTEMPT_AT.isNotNull())
                .and(stillPending())
                .and(MSG_EVENT.NEXT_ATTEMPT_AT.le(now)));
    }

    private static long orNone(Long eventId) {
        return eventId == null ? DueRetries.NONE : eventId;
    }

    @Override
    public boolean markSent(long eventId, Instant sentAt) {
        return StoreOperation.run("confirming the delivery of notification " + eventId,
                () -> confirmingNotifications(new Long[]{eventId}, sentAt).execute() == 1);
    }

    @Override
    public boolean markProjectionSent(FlightId flid, long stateVersion, Instant sentAt) {
        return StoreOperation.run("confirming the delivery of the projection of FLID " + flid + " version "
                + stateVersion, () -> dsl
                .update(MSG_EVENT)
                .set(MSG_EVENT.STATUS, SENT_STATUS)
                .set(MSG_EVENT.SENT_AT, sentAt)
                .where(MSG_EVENT.TARGET.eq(SCHD_TARGET))
                .and(MSG_EVENT.PARTITION_KEY.eq(flid.value()))
                .and(MSG_EVENT.STATE_VERSION.eq(stateVersion))
                .and(stillPending())
                .execute() == 1);
    }

    @Override
    public int markAllSent(Collection<Long> eventIds, Instant sentAt) {
        if (eventIds.isEmpty()) {
            return 0;
        }
        return StoreOperation.run("confirming the delivery of " + eventIds.size() + " notification(s)",
                () -> confirmingNotifications(eventIds.toArray(Long[]::new), sentAt).execute());
    }

    /** Delivered notifications become SENT, only while PENDING. Package-private for the plan checks of the tests. */
    Query confirmingNotifications(Long[] eventIds, Instant sentAt) {
        return dsl.update(MSG_EVENT)
                .set(MSG_EVENT.STATUS, SENT_STATUS)
                .set(MSG_EVENT.SENT_AT, sentAt)
                .where(KeySet.spanning(MSG_EVENT.EVENT_ID, eventIds))
                .and(MSG_EVENT.TARGET.eq(MSG_TARGET))
                .and(stillPending());
    }

    /**
     * One statement joining the sent (FLID, version) pairs, bound as two arrays; {@code RETURNING} says which FLIDs
     * were confirmed. Not a batch of one {@code UPDATE} per FLID: under statistics taken when few projections were
     * pending (a burst, or the bench re-arming its outbox) the planner ran each of them as a scan of every pending
     * projection — 5,000 × 5,000 rows, 8–9 s a round. As a join the worst plan is a hash join, linear in both.
     *
     * <p>The rows are locked in the order of {@code sentVersions} whatever the plan: the pump writes a group's
     * projections in FLID order ({@code FlightChangeWriter}) and the dispatcher passes them in FLID order, but a plain
     * {@code UPDATE ... FROM} locks in the order its join finds the rows — the table's order under a hash join — and
     * so once deadlocked with a group's upsert in the 1M bench (D-43).
     */
    @Override
    public Set<FlightId> markProjectionsSent(Map<FlightId, Long> sentVersions, Instant sentAt) {
        if (sentVersions.isEmpty()) {
            return Set.of();
        }
        return StoreOperation.run("confirming the delivery of " + sentVersions.size() + " projection(s)", () ->
                confirmingProjections(sentVersions, sentAt)
                        .fetch(MSG_EVENT.PARTITION_KEY).stream()
                        .map(FlightId::of)
                        .collect(Collectors.toCollection(LinkedHashSet::new)));
    }

    /**
     * Delivered projections become SENT, only while their row still holds the generation sent and is PENDING: the
     * rows are first locked one after the other in the order of {@code sentVersions} ({@code FOR UPDATE} above a sort
     * by the pairs' position), then updated by {@code EVENT_ID}. A row the pump replaced meanwhile, by a newer version
     * or by the same version again (a new {@code EVENT_ID}), stays PENDING and is sent again. Package-private for the
     * plan checks of the tests.
     */
    ResultQuery<Record1<String>> confirmingProjections(Map<FlightId, Long> sentVersions, Instant sentAt) {
        var flids = sentVersions.keySet().stream().map(FlightId::value).toArray(String[]::new);
        var versions = sentVersions.values().toArray(Long[]::new);
        var sent = table("unnest({0}, {1}) with ordinality", val(flids), val(versions))
                .as("sent", "flid", "version", "position");
        var locked = name("locked").fields("event_id").as(select(MSG_EVENT.EVENT_ID)
                .from(MSG_EVENT)
                .join(sent).on(MSG_EVENT.PARTITION_KEY.eq(field(name("sent", "flid"), String.class)))
                .where(MSG_EVENT.TARGET.eq(SCHD_TARGET))
                .and(MSG_EVENT.STATE_VERSION.eq(field(name("sent", "version"), Long.class)))
                .and(stillPending())
                .orderBy(field(name("sent", "position")))
                .forUpdate().of(MSG_EVENT));
        return dsl.with(locked)
                .update(MSG_EVENT)
                .set(MSG_EVENT.STATUS, SENT_STATUS)
                .set(MSG_EVENT.SENT_AT, sentAt)
                .from(locked)
                .where(MSG_EVENT.EVENT_ID.eq(locked.field("event_id", Long.class)))
                .returningResult(MSG_EVENT.PARTITION_KEY);
    }

    /**
     * {@code STATUS = 'PENDING'}, re-checked on a row already found by its key ({@link KeySet#recheck}, D-42): as a
     * plain comparison, a planner whose statistics said hardly anything was pending walked every pending row through
     * {@code IX_MSG_EVENT_DISPATCH} for the keys of a confirmation — 1.6–4.3 s a round of 5,000 in the 1M bench, 15
     * minutes in {@code psql} at 1.2M pending rows.
     */
    private static Condition stillPending() {
        return foundRowHasStatus(PENDING_STATUS);
    }

    /** {@code STATUS = status}, re-checked on a row already found by its key ({@link KeySet#recheck}). */
    private static Condition foundRowHasStatus(Field<String> status) {
        return KeySet.recheck(MSG_EVENT.STATUS).eq(status);
    }

    @Override
    public boolean recordDeliveryFailure(long eventId, String error, Instant nextAttemptAt, boolean dead, Instant now) {
        return StoreOperation.run("recording a failed delivery of event " + eventId, () -> dsl
                .update(MSG_EVENT)
                .set(MSG_EVENT.STATUS, dead ? DEAD_STATUS : PENDING_STATUS)
                .set(MSG_EVENT.ATTEMPTS, MSG_EVENT.ATTEMPTS.plus(1))
                .set(MSG_EVENT.LAST_ERROR, ColumnText.fitted(error, LAST_ERROR_WIDTH))
                .set(MSG_EVENT.NEXT_ATTEMPT_AT, nextAttemptAt)
                .where(MSG_EVENT.EVENT_ID.eq(eventId))
                .and(stillPending())
                .execute() == 1);
    }

    /**
     * Walks {@code MSG_EVENT} by its primary key, a window of rows at a time from the lowest {@code EVENT_ID}, and
     * deletes the window's rows written and sent before {@code cutoff}, until {@code limit} are deleted or the walk
     * reaches a row written at or after the cutoff. Events are written in {@code EVENT_ID} order, so the rows beyond
     * that one are too new to be due; one that is (behind a clock set back) is deleted by a later run. The walk
     * passes again over what a run leaves at the front — dead letters, retrying and late rows — which are few.
     *
     * <p>No index on {@code SENT_AT} serves this (D-49): every confirmation would write an entry into it, a fifth of
     * the confirming {@code UPDATE}'s cost, which sets the dispatcher's pace. Each window is one statement on the
     * primary key whatever the statistics say (no filter but the key, a limit), and its rows are deleted by key.
     */
    @Override
    public int deleteSentBefore(Instant cutoff, int limit) {
        requireBatch(limit);
        return StoreOperation.run("deleting delivered events sent before " + cutoff, () -> {
            int deleted = 0;
            long after = Long.MIN_VALUE;
            while (deleted < limit) {
                // no larger than what is left to delete, so a window never holds more due rows than may go
                int wanted = limit - deleted;
                var window = walkingFrom(after, wanted).fetch();
                var doomed = window.stream()
                        .filter(row -> sentAndWrittenBefore(row, cutoff))
                        .map(Record4::value1)
                        .toArray(Long[]::new);
                if (doomed.length > 0) {
                    deleted += deletingSent(doomed, cutoff).execute();
                }
                if (window.size() < wanted || !window.stream().allMatch(row -> writtenBefore(row, cutoff))) {
                    break;
                }
                after = window.get(window.size() - 1).value1();
            }
            return deleted;
        });
    }

    /** A row of {@link #walkingFrom} the clean-up deletes: {@code SENT}, and sent and written before the cutoff. */
    private static boolean sentAndWrittenBefore(Record4<Long, String, Instant, Instant> row, Instant cutoff) {
        Instant sentAt = row.value3();
        return SENT.equals(row.value2()) && sentAt != null && sentAt.isBefore(cutoff) && writtenBefore(row, cutoff);
    }

    /** Whether a row of {@link #walkingFrom} was written before the cutoff; the walk ends at the first that was not. */
    private static boolean writtenBefore(Record4<Long, String, Instant, Instant> row, Instant cutoff) {
        return row.value4().isBefore(cutoff);
    }

    /**
     * The clean-up's next window: up to {@code size} rows after {@code afterEventId} in key order, whatever their
     * status. Package-private for the plan checks of the tests.
     */
    ResultQuery<Record4<Long, String, Instant, Instant>> walkingFrom(long afterEventId, int size) {
        return dsl.select(MSG_EVENT.EVENT_ID, MSG_EVENT.STATUS, MSG_EVENT.SENT_AT, MSG_EVENT.CREATED_AT)
                .from(MSG_EVENT)
                .where(MSG_EVENT.EVENT_ID.gt(afterEventId))
                .orderBy(MSG_EVENT.EVENT_ID)
                .limit(size);
    }

    /**
     * The window's due rows, deleted by key and checked again on the row deleted: a projection re-opened by a newer
     * version meanwhile has another {@code EVENT_ID} and stays. Package-private for the plan checks of the tests.
     */
    Query deletingSent(Long[] eventIds, Instant cutoff) {
        return dsl.deleteFrom(MSG_EVENT)
                .where(KeySet.contains(MSG_EVENT.EVENT_ID, eventIds))
                .and(foundRowHasStatus(SENT_STATUS))
                .and(MSG_EVENT.SENT_AT.lt(cutoff))
                .and(MSG_EVENT.CREATED_AT.lt(cutoff));
    }

    @Override
    public DeliveryBacklog deliveryBacklog() {
        return StoreOperation.run("counting the delivery backlog", () -> {
            var row = dsl.select(
                            count().filterWhere(MSG_EVENT.STATUS.eq(PENDING_STATUS)),
                            count().filterWhere(MSG_EVENT.STATUS.eq(DEAD_STATUS)),
                            min(MSG_EVENT.CREATED_AT).filterWhere(MSG_EVENT.STATUS.eq(PENDING_STATUS)))
                    .from(MSG_EVENT)
                    .where(MSG_EVENT.STATUS.in(PENDING_STATUS, DEAD_STATUS))
                    .fetchSingle();
            return new DeliveryBacklog(row.value1(), row.value2(), row.value3());
        });
    }

    @Override
    public List<DeadEvent> deadEvents(int limit) {
        requireBatch(limit);
        return StoreOperation.run("listing the dead events", () -> dsl
                .select(MSG_EVENT.EVENT_ID, MSG_EVENT.TARGET, MSG_EVENT.PARTITION_KEY, MSG_EVENT.STATE_VERSION,
                        MSG_EVENT.ATTEMPTS, MSG_EVENT.LAST_ERROR, MSG_EVENT.CREATED_AT, MSG_EVENT.NEXT_ATTEMPT_AT)
                .from(MSG_EVENT)
                .where(MSG_EVENT.STATUS.eq(DEAD_STATUS))
                .orderBy(MSG_EVENT.EVENT_ID)
                .limit(limit)
                .fetch(row -> new DeadEvent(row.value1(), OutboxTarget.ofCode(row.value2()), row.value3(), row.value4(),
                        row.value5(), row.value6(), row.value7(), row.value8())));
    }

    /**
     * One statement, so every row is judged as it was before it: a notification behind an older pending one of its
     * FLID gets no {@code NEXT_ATTEMPT_AT}, every other resent row {@code now} (D-67).
     */
    @Override
    public List<Long> resendDead(Collection<Long> eventIds, Instant now) {
        if (eventIds.isEmpty()) {
            return List.of();
        }
        var earlier = MSG_EVENT.as("earlier");
        var behindPending = MSG_EVENT.TARGET.eq(MSG_TARGET).and(exists(selectOne().from(earlier)
                .where(earlier.TARGET.eq(MSG_TARGET))
                .and(earlier.PARTITION_KEY.eq(MSG_EVENT.PARTITION_KEY))
                .and(earlier.STATUS.eq(PENDING_STATUS))
                .and(earlier.EVENT_ID.lt(MSG_EVENT.EVENT_ID))));
        return StoreOperation.run("resending " + eventIds.size() + " dead event(s)", () -> dsl
                .update(MSG_EVENT)
                .set(MSG_EVENT.STATUS, PENDING_STATUS)
                .set(MSG_EVENT.ATTEMPTS, 0)
                .set(MSG_EVENT.SENT_AT, castNull(MSG_EVENT.SENT_AT))
                .set(MSG_EVENT.NEXT_ATTEMPT_AT, when(behindPending, castNull(MSG_EVENT.NEXT_ATTEMPT_AT))
                        .otherwise(val(now, MSG_EVENT.NEXT_ATTEMPT_AT)))
                .where(deadAmong(eventIds))
                .returning(MSG_EVENT.EVENT_ID)
                .fetch(MSG_EVENT.EVENT_ID)
                .stream().sorted().toList());
    }

    @Override
    public List<Long> purgeDead(Collection<Long> eventIds) {
        if (eventIds.isEmpty()) {
            return List.of();
        }
        return StoreOperation.run("purging " + eventIds.size() + " dead event(s)", () -> dsl
                .deleteFrom(MSG_EVENT)
                .where(deadAmong(eventIds))
                .returning(MSG_EVENT.EVENT_ID)
                .fetch(MSG_EVENT.EVENT_ID)
                .stream().sorted().toList());
    }

    /** The {@code DEAD} rows among {@code eventIds}: found by key, their status re-checked on the row found. */
    private static Condition deadAmong(Collection<Long> eventIds) {
        return KeySet.contains(MSG_EVENT.EVENT_ID, eventIds.toArray(Long[]::new)).and(foundRowHasStatus(DEAD_STATUS));
    }

    @Override
    public Optional<OutboxEntry> rearmProjection(FlightId flid, Instant now) {
        return StoreOperation.run("re-arming the projection of FLID " + flid.value(), () -> {
            var rearmed = dsl.update(MSG_EVENT)
                    .set(MSG_EVENT.STATUS, PENDING_STATUS)
                    .set(MSG_EVENT.ATTEMPTS, 0)
                    .set(MSG_EVENT.NEXT_ATTEMPT_AT, now)
                    .set(MSG_EVENT.LAST_ERROR, castNull(MSG_EVENT.LAST_ERROR))
                    .set(MSG_EVENT.SENT_AT, castNull(MSG_EVENT.SENT_AT))
                    .where(MSG_EVENT.TARGET.eq(SCHD_TARGET))
                    .and(MSG_EVENT.PARTITION_KEY.eq(flid.value()))
                    .and(MSG_EVENT.STATUS.in(SENT_STATUS, DEAD_STATUS))
                    .returning(MSG_EVENT.EVENT_ID)
                    .fetchOptional(MSG_EVENT.EVENT_ID);
            return rearmed.flatMap(eventId -> entries(dsl.selectFrom(MSG_EVENT).where(MSG_EVENT.EVENT_ID.eq(eventId)))
                    .stream().findFirst());
        });
    }

    /** Never tried, or its retry time has come. */
    private static Condition isDue(Instant now) {
        return MSG_EVENT.NEXT_ATTEMPT_AT.isNull().or(MSG_EVENT.NEXT_ATTEMPT_AT.le(now));
    }

    private static void requireBatch(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("the limit of a dispatch batch is at least 1, got " + limit);
        }
    }

    /**
     * Every event in one statement ({@link UnnestRows}), each given the next {@code EVENT_ID} in list order (the order
     * of a FLID's notifications, and the FLID order projections are locked in); {@code conflict} ends the statement.
     * Returns how many rows were written.
     */
    private int insertAll(List<OutboxEvent> events, String conflict) {
        var rows = events.stream().map(event -> new Object[] {event.target().code(), event.partitionKey().value(),
                event.eventType().name(), event.stateVersion(), event.msgId(), event.payload(), event.createdAt()})
                .toList();
        return UnnestRows.execute(dsl, INSERT_EVENTS + conflict, List.of(), EVENT_COLUMNS.size(), rows);
    }

    /** One event's insert, for {@link #append}, which needs its new {@code EVENT_ID} back. */
    private InsertSetMoreStep<MsgEventRecord> insert(OutboxEvent event) {
        return dsl.insertInto(MSG_EVENT)
                .set(MSG_EVENT.EVENT_ID, MSG_EVENT_SEQ.nextval())
                .set(MSG_EVENT.TARGET, event.target().code())
                .set(MSG_EVENT.PARTITION_KEY, event.partitionKey().value())
                .set(MSG_EVENT.EVENT_TYPE, event.eventType().name())
                .set(MSG_EVENT.STATE_VERSION, event.stateVersion())
                .set(MSG_EVENT.MSG_ID, event.msgId())
                .set(MSG_EVENT.PAYLOAD, event.payload())
                .set(MSG_EVENT.STATUS, PENDING)
                .set(MSG_EVENT.ATTEMPTS, 0)
                .set(MSG_EVENT.CREATED_AT, event.createdAt());
    }

    /** Where each column stands in a row of {@code selectFrom(MSG_EVENT)}, counted from 1 as JDBC does. */
    private static final int EVENT_ID = MSG_EVENT.indexOf(MSG_EVENT.EVENT_ID) + 1;
    private static final int TARGET = MSG_EVENT.indexOf(MSG_EVENT.TARGET) + 1;
    private static final int PARTITION_KEY = MSG_EVENT.indexOf(MSG_EVENT.PARTITION_KEY) + 1;
    private static final int EVENT_TYPE = MSG_EVENT.indexOf(MSG_EVENT.EVENT_TYPE) + 1;
    private static final int STATE_VERSION = MSG_EVENT.indexOf(MSG_EVENT.STATE_VERSION) + 1;
    private static final int MSG_ID = MSG_EVENT.indexOf(MSG_EVENT.MSG_ID) + 1;
    private static final int PAYLOAD = MSG_EVENT.indexOf(MSG_EVENT.PAYLOAD) + 1;
    private static final int STATUS = MSG_EVENT.indexOf(MSG_EVENT.STATUS) + 1;
    private static final int ATTEMPTS = MSG_EVENT.indexOf(MSG_EVENT.ATTEMPTS) + 1;
    private static final int NEXT_ATTEMPT_AT = MSG_EVENT.indexOf(MSG_EVENT.NEXT_ATTEMPT_AT) + 1;
    private static final int LAST_ERROR = MSG_EVENT.indexOf(MSG_EVENT.LAST_ERROR) + 1;
    private static final int CREATED_AT = MSG_EVENT.indexOf(MSG_EVENT.CREATED_AT) + 1;
    private static final int SENT_AT = MSG_EVENT.indexOf(MSG_EVENT.SENT_AT) + 1;

    /**
     * The outbox rows {@code query} selects ({@code selectFrom(MSG_EVENT)}), read from the JDBC result by column
     * position: jOOQ's records, one object and one binding call per value, were half of the dispatcher's CPU in a
     * round of 5,000 (JFR, issue 9).
     */
    private static List<OutboxEntry> entries(ResultQuery<MsgEventRecord> query) {
        return read(query, "outbox rows", rows -> new OutboxEntry(rows.getLong(EVENT_ID),
                new OutboxEvent(OutboxTarget.ofCode(rows.getString(TARGET)), FlightId.of(rows.getString(PARTITION_KEY)),
                        OutboxEvent.EventType.valueOf(rows.getString(EVENT_TYPE)), rows.getLong(STATE_VERSION),
                        rows.getLong(MSG_ID), rows.getString(PAYLOAD), instant(rows, CREATED_AT)),
                OutboxEntry.DeliveryStatus.valueOf(rows.getString(STATUS)), rows.getInt(ATTEMPTS),
                instant(rows, NEXT_ATTEMPT_AT), rows.getString(LAST_ERROR), instant(rows, SENT_AT)));
    }

    /** One row of a JDBC result, read by column position. */
    @FunctionalInterface
    private interface RowReader<T> {
        T read(ResultSet rows) throws SQLException;
    }

    /** Every row {@code query} selects, read by {@code reader} straight from the JDBC result. */
    private static <T> List<T> read(ResultQuery<MsgEventRecord> query, String what, RowReader<T> reader) {
        var read = new ArrayList<T>();
        try (ResultSet rows = query.fetchResultSet()) {
            while (rows.next()) {
                read.add(reader.read(rows));
            }
        } catch (SQLException e) {
            throw new DataAccessException("reading " + what + ": " + e.getMessage(), e);
        }
        return read;
    }

    private static Instant instant(ResultSet rows, int column) throws SQLException {
        var time = rows.getObject(column, OffsetDateTime.class);
        return time == null ? null : time.toInstant();
    }
}
