package io.msgx.adapter.pg;

import io.msgx.pipeline.port.RequestTrack;
import io.msgx.pipeline.store.MatchMode;
import io.msgx.pipeline.store.Request;
import io.msgx.pipeline.store.RequestKind;
import io.msgx.pipeline.store.RequestStatus;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Record;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import static io.msgx.adapter.pg.jooq.Tables.REQ_TRACK;
import static org.jooq.impl.DSL.inline;

/**
 * {@link RequestTrack} on {@code REQ_TRACK}. {@code REQ_TYPE} is {@code 'RQFD'} for a schedule request and the
 * reference type for a reference request, so the kind is derived from it; {@code DONE_AT} is the close time of
 * both closed states. Every transition is one conditional {@code UPDATE} on the expected status, so a closed row
 * never changes. {@link #register} takes a transaction-scoped advisory lock on the key, expires the open row, then
 * inserts: run it only inside a transaction ({@link PgPipelineStore#requests()} opens one).
 */
final class PgRequestTrack implements RequestTrack {

    private static final List<org.jooq.Field<String>> OPEN = List.of(inline("PENDING"), inline("SENT"));

    private final DSLContext dsl;

    PgRequestTrack(DSLContext dsl) {
        this.dsl = dsl;
    }

    @Override
    public Request register(RequestKind kind, String subject, LocalDate coverDay, String sender, String seqn,
                            Instant windowStart, Instant windowEnd, Instant now) {
        RequestTrack.requireRegistrable(kind, subject, coverDay, sender, seqn, windowStart, windowEnd, now);
        var type = kind.typeKey(subject);
        var operation = "registering " + type + " request " + seqn + " for " + coverDay + " from " + sender;
        return StoreOperation.run(operation, () -> {
            dsl.fetch("SELECT 1 FROM (SELECT pg_advisory_xact_lock(hashtext(?))) AS locked",
                    "REQ_TRACK|" + type + "|" + coverDay + "|" + sender);
            findBySeqn(seqn).ifPresent(other -> {
                throw RequestTrack.seqnInUse(seqn, other.id());
            });
            dsl.update(REQ_TRACK)
                    .set(REQ_TRACK.STATUS, RequestStatus.EXPIRED.name())
                    .set(REQ_TRACK.DONE_AT, now)
                    .where(REQ_TRACK.REQ_TYPE.eq(type))
                    .and(coverDay == null ? REQ_TRACK.COVER_DAY.isNull() : REQ_TRACK.COVER_DAY.eq(coverDay))
                    .and(REQ_TRACK.SENDER.eq(sender))
                    .and(REQ_TRACK.STATUS.in(OPEN))
                    .execute();
            return dsl.insertInto(REQ_TRACK)
                    .set(REQ_TRACK.REQ_TYPE, type)
                    .set(REQ_TRACK.COVER_DAY, coverDay)
                    .set(REQ_TRACK.SENDER, sender)
                    .set(REQ_TRACK.STATUS, RequestStatus.PENDING.name())
                    .set(REQ_TRACK.REQ_SEQN, seqn)
                    .set(REQ_TRACK.WINDOW_START, windowStart)
                    .set(REQ_TRACK.WINDOW_END, windowEnd)
                    .set(REQ_TRACK.CREATED_AT, now)
                    .returning()
                    .fetchSingle(PgRequestTrack::request);
        });
    }

    @Override
    public boolean markSent(long id, long outMsgId, Instant sentAt) {
        Objects.requireNonNull(sentAt, "sentAt");
        return StoreOperation.run("marking request " + id + " sent as outbound message " + outMsgId, () -> dsl
                .update(REQ_TRACK)
                .set(REQ_TRACK.STATUS, RequestStatus.SENT.name())
                .set(REQ_TRACK.OUT_MSG_ID, outMsgId)
                .set(REQ_TRACK.SENT_AT, sentAt)
                .where(REQ_TRACK.ID.eq(id))
                .and(REQ_TRACK.STATUS.eq(inline(RequestStatus.PENDING.name())))
                .execute()) == 1;
    }

    @Override
    public Optional<Request> find(long id) {
        return StoreOperation.run("reading request " + id, () -> dsl
                .selectFrom(REQ_TRACK).where(REQ_TRACK.ID.eq(id)).fetchOptional(PgRequestTrack::request));
    }

    @Override
    public Optional<Request> findBySeqn(String seqn) {
        Objects.requireNonNull(seqn, "seqn");
        return StoreOperation.run("reading the request of SEQN " + seqn, () -> dsl
                .selectFrom(REQ_TRACK).where(REQ_TRACK.REQ_SEQN.eq(seqn)).fetchOptional(PgRequestTrack::request));
    }

    @Override
    public List<Request> openOf(RequestKind kind, String subject) {
        Objects.requireNonNull(kind, "kind");
        Condition type = kind == RequestKind.SCHEDULE
                ? REQ_TRACK.REQ_TYPE.eq(RequestKind.SCHEDULE_TYPE)
                : REQ_TRACK.REQ_TYPE.eq(Objects.requireNonNull(subject, "subject"));
        return StoreOperation.run("listing the sent " + kind.typeKey(subject) + " requests", () -> dsl
                .selectFrom(REQ_TRACK)
                .where(type)
                .and(REQ_TRACK.STATUS.eq(inline(RequestStatus.SENT.name())))
                .orderBy(REQ_TRACK.CREATED_AT, REQ_TRACK.ID)
                .fetch(PgRequestTrack::request));
    }

    @Override
    public List<Request> pending() {
        return StoreOperation.run("listing the pending requests", () -> dsl
                .selectFrom(REQ_TRACK)
                .where(REQ_TRACK.STATUS.eq(inline(RequestStatus.PENDING.name())))
                .orderBy(REQ_TRACK.CREATED_AT, REQ_TRACK.ID)
                .fetch(PgRequestTrack::request));
    }

    @Override
    public boolean complete(long id, long responseMsgId, MatchMode mode, Instant at) {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(at, "at");
        return StoreOperation.run("completing request " + id + " by message " + responseMsgId, () -> dsl
                .update(REQ_TRACK)
                .set(REQ_TRACK.STATUS, RequestStatus.DONE.name())
                .set(REQ_TRACK.RESP_MSG_ID, responseMsgId)
                .set(REQ_TRACK.MATCH_MODE, mode.name())
                .set(REQ_TRACK.DONE_AT, at)
                .where(REQ_TRACK.ID.eq(id))
                .and(REQ_TRACK.STATUS.eq(inline(RequestStatus.SENT.name())))
                .execute()) == 1;
    }

    @Override
    public int expireOpenBefore(Instant cutoff, Instant now) {
        Objects.requireNonNull(cutoff, "cutoff");
        Objects.requireNonNull(now, "now");
        return StoreOperation.run("expiring requests created before " + cutoff, () -> dsl
                .update(REQ_TRACK)
                .set(REQ_TRACK.STATUS, RequestStatus.EXPIRED.name())
                .set(REQ_TRACK.DONE_AT, now)
                .where(REQ_TRACK.STATUS.in(OPEN))
                .and(REQ_TRACK.CREATED_AT.lt(cutoff))
                .execute());
    }

    private static Request request(Record row) {
        var type = row.get(REQ_TRACK.REQ_TYPE);
        var kind = RequestKind.SCHEDULE_TYPE.equals(type) ? RequestKind.SCHEDULE : RequestKind.REFERENCE;
        var mode = row.get(REQ_TRACK.MATCH_MODE);
        return new Request(row.get(REQ_TRACK.ID), kind, kind == RequestKind.SCHEDULE ? null : type,
                row.get(REQ_TRACK.COVER_DAY), row.get(REQ_TRACK.SENDER), RequestStatus.valueOf(row.get(REQ_TRACK.STATUS)),
                row.get(REQ_TRACK.REQ_SEQN), row.get(REQ_TRACK.OUT_MSG_ID), row.get(REQ_TRACK.WINDOW_START),
                row.get(REQ_TRACK.WINDOW_END), row.get(REQ_TRACK.CREATED_AT), row.get(REQ_TRACK.SENT_AT),
                row.get(REQ_TRACK.DONE_AT), row.get(REQ_TRACK.RESP_MSG_ID), mode == null ? null : MatchMode.valueOf(mode));
    }
}
