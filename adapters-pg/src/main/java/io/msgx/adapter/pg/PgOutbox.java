package io.msgx.adapter.pg;

import io.msgx.adapter.pg.jooq.tables.records.MsgEventRecord;
import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.store.Outbox;
import io.msgx.pipeline.store.OutboxEntry;
import io.msgx.pipeline.store.OutboxEvent;
import io.msgx.pipeline.store.OutboxTarget;
import org.jooq.DSLContext;
import org.jooq.InsertSetMoreStep;

import java.util.List;

import static io.msgx.adapter.pg.jooq.Sequences.MSG_EVENT_SEQ;
import static io.msgx.adapter.pg.jooq.Tables.MSG_EVENT;
import static org.jooq.impl.DSL.excluded;
import static org.jooq.impl.DSL.inline;

/**
 * {@link Outbox} on {@code MSG_EVENT}, bound to one transaction. Every written row takes a new {@code EVENT_ID}
 * from {@code MSG_EVENT_SEQ}, so append order is {@code EVENT_ID} order; the {@code KAFKA:schd} projection keeps
 * one row per FLID through the partial unique index on {@code PARTITION_KEY}.
 */
final class PgOutbox implements Outbox {

    private static final String PENDING = OutboxEntry.DeliveryStatus.PENDING.name();

    private final DSLContext dsl;

    PgOutbox(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public long append(OutboxEvent notification) {
        if (notification.target() != OutboxTarget.KAFKA_MSG) {
            throw new IllegalArgumentException("append takes KAFKA:msg notifications; the " + notification.target().code()
                    + " row of FLID " + notification.partitionKey() + " goes through upsertProjection");
        }
        return StoreOperation.run("appending a notification of message " + notification.msgId() + " for FLID "
                + notification.partitionKey(), () -> insert(notification)
                .returningResult(MSG_EVENT.EVENT_ID)
                .fetchSingle()
                .value1());
    }

    @Override
    public boolean upsertProjection(OutboxEvent projection) {
        if (projection.target() != OutboxTarget.KAFKA_SCHD) {
            throw new IllegalArgumentException("upsertProjection takes KAFKA:schd rows; the "
                    + projection.target().code() + " event of FLID " + projection.partitionKey() + " goes through append");
        }
        return StoreOperation.run("writing the projection of FLID " + projection.partitionKey() + " version "
                + projection.stateVersion(), () -> insert(projection)
                .onConflict(MSG_EVENT.PARTITION_KEY)
                .where(MSG_EVENT.TARGET.eq(inline(OutboxTarget.KAFKA_SCHD.code())))
                .doUpdate()
                .set(MSG_EVENT.EVENT_ID, excluded(MSG_EVENT.EVENT_ID))
                .set(MSG_EVENT.EVENT_TYPE, excluded(MSG_EVENT.EVENT_TYPE))
                .set(MSG_EVENT.STATE_VERSION, excluded(MSG_EVENT.STATE_VERSION))
                .set(MSG_EVENT.MSG_ID, excluded(MSG_EVENT.MSG_ID))
                .set(MSG_EVENT.PAYLOAD, excluded(MSG_EVENT.PAYLOAD))
                .set(MSG_EVENT.STATUS, PENDING)
                .set(MSG_EVENT.ATTEMPTS, 0)
                .setNull(MSG_EVENT.NEXT_ATTEMPT_AT)
                .setNull(MSG_EVENT.LAST_ERROR)
                .set(MSG_EVENT.CREATED_AT, excluded(MSG_EVENT.CREATED_AT))
                .setNull(MSG_EVENT.SENT_AT)
                .where(MSG_EVENT.STATE_VERSION.le(excluded(MSG_EVENT.STATE_VERSION)))
                .execute() == 1);
    }

    @Override
    public List<OutboxEntry> pending(OutboxTarget target, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("the limit of a dispatch batch is at least 1, got " + limit);
        }
        return StoreOperation.run("reading pending " + target.code() + " events", () -> dsl
                .selectFrom(MSG_EVENT)
                .where(MSG_EVENT.STATUS.eq(PENDING))
                .and(MSG_EVENT.TARGET.eq(target.code()))
                .orderBy(MSG_EVENT.EVENT_ID)
                .limit(limit)
                .fetch(PgOutbox::entryOf));
    }

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

    private static OutboxEntry entryOf(MsgEventRecord row) {
        var event = new OutboxEvent(
                OutboxTarget.ofCode(row.getTarget()),
                FlightId.of(row.getPartitionKey()),
                OutboxEvent.EventType.valueOf(row.getEventType()),
                row.getStateVersion(),
                row.getMsgId(),
                row.getPayload(),
                row.getCreatedAt());
        return new OutboxEntry(row.getEventId(), event, OutboxEntry.DeliveryStatus.valueOf(row.getStatus()),
                row.getAttempts(), row.getNextAttemptAt(), row.getLastError(), row.getSentAt());
    }
}
