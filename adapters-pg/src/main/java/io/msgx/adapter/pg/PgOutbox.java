package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.JdbcOutbox;
import io.msgx.adapter.jdbc.StoreJdbc;
import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.record.ReferenceEvent;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Query;
import org.jooq.Record1;
import org.jooq.Record2;
import org.jooq.Record4;
import org.jooq.ResultQuery;
import org.jooq.impl.DefaultConnectionProvider;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import static io.msgx.adapter.pg.jooq.Tables.MSG_EVENT;
import static org.jooq.impl.DSL.field;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.min;
import static org.jooq.impl.DSL.name;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.table;
import static org.jooq.impl.DSL.val;

/**
 * The outbox on PostgreSQL: the shared statements ({@link JdbcOutbox}), and PostgreSQL's own where they were measured
 * (in jOOQ). Every write of a group is one statement whatever its number of rows ({@link UnnestRows}), each row given
 * the next {@code EVENT_ID} in list order; the {@code KAFKA:schd} projection keeps one row per FLID, and the
 * {@code KAFKA:ref} event one per reference record, through the partial unique indexes on {@code PARTITION_KEY}, and
 * a row is replaced only by a version not older than its own. The confirmations of a dispatch round, the look-up of
 * the due retries and the clean-up walk are the statements the plan checks of the tests hold to (D-42, D-43, D-47,
 * D-49, D-50). Status and target constants are rendered inline, so the partial indexes match under a generic plan.
 */
final class PgOutbox extends JdbcOutbox {
    private static final String PENDING = OutboxEntry.DeliveryStatus.PENDING.name();
    private static final Field<String> PENDING_STATUS = inline(PENDING);
    private static final String SENT = OutboxEntry.DeliveryStatus.SENT.name();
    private static final Field<String> SENT_STATUS = inline(SENT);
    private static final Field<String> MSG_TARGET = inline(OutboxTarget.KAFKA_MSG.code());
    private static final Field<String> SCHD_TARGET = inline(OutboxTarget.KAFKA_SCHD.code());

    /** The columns of an event the pump writes; the rest start as every new event does. */
    private static final List<Field<?>> EVENT_COLUMNS = List.of(MSG_EVENT.TARGET, MSG_EVENT.PARTITION_KEY,
            MSG_EVENT.EVENT_TYPE, MSG_EVENT.STATE_VERSION, MSG_EVENT.MSG_ID, MSG_EVENT.PAYLOAD, MSG_EVENT.CREATED_AT);
    private static final String INSERT_EVENTS = """
            insert into "msg_event" ("event_id", %1$s, "status", "attempts")
            select nextval('msg_event_seq'), %2$s, '%3$s', 0 from %4$s""".formatted(
            EVENT_COLUMNS.stream().map(UnnestRows::quoted).collect(Collectors.joining(", ")),
            EVENT_COLUMNS.stream().map(column -> "r." + UnnestRows.quoted(column)).collect(Collectors.joining(", ")),
            PENDING, UnnestRows.source(EVENT_COLUMNS, "r"));
    /** Projection rows: each FLID's row is replaced, as a new pending event, by a version not older than its own. */
    private static final String REPLACING_OLDER = """

            on conflict ("partition_key") where "target" = '%s' do update set "event_id" = excluded."event_id",
                "event_type" = excluded."event_type", "state_version" = excluded."state_version",
                "msg_id" = excluded."msg_id", "payload" = excluded."payload", "status" = '%s', "attempts" = 0,
                "next_attempt_at" = null, "last_error" = null, "created_at" = excluded."created_at", "sent_at" = null
            where "msg_event"."state_version" <= excluded."state_version"
            """.formatted(
            OutboxTarget.KAFKA_SCHD.code(), PENDING);
    /** Reference rows (D-60): each RTYPE:RKEY's row is replaced, as a new pending event, by a change not older. */
    private static final String REPLACING_OLDER_REFERENCE = REPLACING_OLDER.replace(
            "'" + OutboxTarget.KAFKA_SCHD.code() + "'", "'" + OutboxTarget.KAFKA_REF.code() + "'");

    private final DSLContext dsl;

    PgOutbox(StoreJdbc sql, DSLContext dsl) {
        super(sql);
        this.dsl = dsl;
    }

    /** Through the partial unique index {@code UX_MSG_EVENT_SCHD}. */
    @Override
    protected String projectionRow() {
        return "TARGET = " + SCHD + " AND PARTITION_KEY = ?";
    }

    /** Through the partial unique index {@code UX_MSG_EVENT_REF}. */
    @Override
    protected String referenceRow() {
        return "TARGET = " + REF + " AND PARTITION_KEY = ?";
    }

    @Override
    public boolean upsertProjection(OutboxEvent projection) {
        requireProjection(projection);
        return insertAll("writing the projection of FLID " + projection.partitionKey() + " version "
                + projection.stateVersion(), List.of(projection), REPLACING_OLDER) == 1;
    }

    @Override
    public void appendAll(List<OutboxEvent> notifications) {
        if (notifications.isEmpty()) {
            return;
        }
        notifications.forEach(JdbcOutbox::requireNotification);
        insertAll("appending " + notifications.size() + " notification(s) of messages "
                + notifications.get(0).msgId() + " to " + notifications.get(notifications.size() - 1).msgId(),
                notifications, "");
    }

    @Override
    public void upsertProjections(Collection<OutboxEvent> projections) {
        if (projections.isEmpty()) {
            return;
        }
        projections.forEach(JdbcOutbox::requireProjection);
        insertAll("writing the projections of " + projections.size() + " flight(s)", List.copyOf(projections),
                REPLACING_OLDER);
    }

    @Override
    public void upsertReferences(List<ReferenceEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        var rows = events.stream().map(event -> new Object[] {OutboxTarget.KAFKA_REF.code(), event.partitionKey(),
                event.eventType().name(), event.msgId(), event.msgId(), event.payload(), event.createdAt()}).toList();
        sql.run("writing " + events.size() + " reference event(s) of message " + events.get(0).msgId(),
                session -> UnnestRows.execute(session.connection(), INSERT_EVENTS + REPLACING_OLDER_REFERENCE,
                        List.of(), EVENT_COLUMNS.size(), rows));
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
    public int markAllSent(Collection<Long> eventIds, Instant sentAt) {
        if (eventIds.isEmpty()) {
            return 0;
        }
        return writing("confirming the delivery of " + eventIds.size() + " notification(s)",
                on -> on.execute(confirmingNotifications(eventIds.toArray(Long[]::new), sentAt)));
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
        return writing("confirming the delivery of " + sentVersions.size() + " projection(s)", on ->
                on.fetch(confirmingProjections(sentVersions, sentAt))
                        .getValues(MSG_EVENT.PARTITION_KEY).stream()
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
        StoreJdbc.requireLimit(limit);
        var operation = "deleting delivered events sent before " + cutoff;
        return StoreOperation.run(operation, () -> {
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
                    deleted += writing(operation, on -> on.execute(deletingSent(doomed, cutoff)));
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

    /**
     * Every event in one statement ({@link UnnestRows}), each given the next {@code EVENT_ID} in list order (the order
     * of a FLID's notifications, and the FLID order projections are locked in); {@code conflict} ends the statement.
     * Returns how many rows were written.
     */
    private int insertAll(String operation, List<OutboxEvent> events, String conflict) {
        var rows = events.stream().map(event -> new Object[] {event.target().code(), event.partitionKey().value(),
                event.eventType().name(), event.stateVersion(), event.msgId(), event.payload(), event.createdAt()})
                .toList();
        return sql.run(operation, session -> UnnestRows.execute(session.connection(), INSERT_EVENTS + conflict,
                List.of(), EVENT_COLUMNS.size(), rows));
    }

    /**
     * {@code statements}, jOOQ's, as one write of this port on a connection of {@link StoreJdbc}: the open transaction's,
     * or an auto-commit one on which the write proves the leader lease first when the store is fenced (D-108).
     */
    private <T> T writing(String operation, Function<DSLContext, T> statements) {
        return StoreOperation.run(operation, () -> sql.run(operation, session ->
                statements.apply(dsl.configuration().derive(new DefaultConnectionProvider(session.connection())).dsl())));
    }

}
