package io.msgx.adapter.jdbc;

import io.msgx.pipeline.port.RequestTrack;
import io.msgx.pipeline.record.MatchMode;
import io.msgx.pipeline.record.Request;
import io.msgx.pipeline.record.RequestKind;
import io.msgx.pipeline.record.RequestStatus;

import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link RequestTrack} on {@code REQ_TRACK}. {@code REQ_TYPE} is {@code 'RQFD'} for a schedule request and the
 * reference type for a reference request, so the kind is derived from it; {@code DONE_AT} is the close time of both
 * closed states. Every transition is one conditional {@code UPDATE} on the expected status, so a closed row never
 * changes.
 *
 * <p>{@link #register} expires the open row, then inserts (its ID generated: {@link SqlDialect#insertReturning}); run
 * it only inside a transaction (a store's auto-committed {@code requests()} opens one). Concurrent registrations of
 * one key are serialised by the dialect's {@link SqlDialect#transactionLock} on the key (PostgreSQL's advisory lock).
 * Where there is none (Oracle 11g), the unique index on the open rows serialises them: the second insert waits for
 * the first transaction, fails on the index once it commits, and the registration then expires that request and
 * inserts again, at most {@value #REGISTER_RACES_TOLERATED} times in all (Oracle keeps the transaction after a failed
 * statement).
 */
public final class JdbcRequestTrack implements RequestTrack {

    private static final String COLUMNS = "ID, REQ_TYPE, COVER_DAY, SENDER, STATUS, REQ_SEQN, OUT_MSG_ID, WINDOW_START,"
            + " WINDOW_END, CREATED_AT, SENT_AT, DONE_AT, RESP_MSG_ID, MATCH_MODE";
    private static final String OPEN = "('PENDING', 'SENT')";
    private static final int REGISTER_RACES_TOLERATED = 3;

    private final StoreJdbc sql;

    public JdbcRequestTrack(StoreJdbc sql) {
        this.sql = sql;
    }

    @Override
    public Request register(RequestKind kind, String subject, LocalDate coverDay, String sender, String seqn,
                            Instant windowStart, Instant windowEnd, Instant now) {
        RequestTrack.requireRegistrable(kind, subject, coverDay, sender, seqn, windowStart, windowEnd, now);
        var type = kind.typeKey(subject);
        var operation = "registering " + type + " request " + seqn + " for " + coverDay + " from " + sender;
        var lock = sql.dialect().transactionLock();
        int tries = lock.isPresent() ? 1 : REGISTER_RACES_TOLERATED;
        return sql.run(operation, session -> {
            if (lock.isPresent()) {
                session.one(lock.get(), row -> true, "REQ_TRACK|" + type + "|" + coverDay + "|" + sender);
            }
            for (int attempt = 1; ; attempt++) {
                var used = session.one("SELECT " + COLUMNS + " FROM REQ_TRACK WHERE REQ_SEQN = ? AND STATUS IN " + OPEN,
                        JdbcRequestTrack::request, seqn);
                if (used.isPresent()) {
                    throw RequestTrack.seqnInUse(seqn, used.get().id());
                }
                session.update("UPDATE REQ_TRACK SET STATUS = 'EXPIRED', DONE_AT = ? WHERE REQ_TYPE = ?"
                                + (coverDay == null ? " AND COVER_DAY IS NULL" : " AND COVER_DAY = ?")
                                + " AND SENDER = ? AND STATUS IN " + OPEN,
                        coverDay == null ? new Object[]{now, type, sender} : new Object[]{now, type, coverDay, sender});
                try {
                    return sql.dialect().insertReturning(session, "REQ_TRACK", "ID", "REQ_TRACK_SEQ",
                            "REQ_TYPE, COVER_DAY, SENDER, STATUS, REQ_SEQN, WINDOW_START, WINDOW_END, CREATED_AT",
                            COLUMNS, JdbcRequestTrack::request,
                            type, coverDay, sender, "PENDING", seqn, windowStart, windowEnd, now);
                } catch (SQLException e) {
                    // Without a lock, another registration of the key (or of the SEQN) committed meanwhile: look
                    // again. With one, none can have, and PostgreSQL's transaction is aborted by the failure.
                    if (attempt < tries && sql.failures().isUniqueViolation(e)) {
                        continue;
                    }
                    throw e;
                }
            }
        });
    }

    @Override
    public boolean markSent(long id, long outMsgId, Instant sentAt) {
        Objects.requireNonNull(sentAt, "sentAt");
        return sql.run("marking request " + id + " sent as outbound message " + outMsgId, session -> session.update(
                "UPDATE REQ_TRACK SET STATUS = 'SENT', OUT_MSG_ID = ?, SENT_AT = ? WHERE ID = ? AND STATUS = 'PENDING'",
                outMsgId, sentAt, id)) == 1;
    }

    @Override
    public Optional<Request> find(long id) {
        return sql.run("reading request " + id, session -> session.one(
                "SELECT " + COLUMNS + " FROM REQ_TRACK WHERE ID = ?", JdbcRequestTrack::request, id));
    }

    @Override
    public Optional<Request> findBySeqn(String seqn) {
        Objects.requireNonNull(seqn, "seqn");
        // The numbers cycle (D-111): the open request first, then the closed ones, the latest first.
        return sql.run("reading the request of SEQN " + seqn, session -> session.one(sql.firstRows("SELECT " + COLUMNS
                        + " FROM REQ_TRACK WHERE REQ_SEQN = ? ORDER BY CASE WHEN STATUS IN " + OPEN
                        + " THEN 0 ELSE 1 END, ID DESC"), JdbcRequestTrack::request, seqn, 1));
    }

    @Override
    public Optional<String> lastSeqn() {
        return sql.run("reading the SEQN of the latest request", session -> session.one(sql.firstRows(
                "SELECT REQ_SEQN FROM REQ_TRACK WHERE REQ_SEQN IS NOT NULL ORDER BY ID DESC"),
                row -> row.text("REQ_SEQN"), 1));
    }

    @Override
    public List<String> openSeqns() {
        return sql.run("listing the SEQNs of the open requests", session -> session.list(
                "SELECT REQ_SEQN FROM REQ_TRACK WHERE STATUS IN " + OPEN + " AND REQ_SEQN IS NOT NULL",
                row -> row.text("REQ_SEQN")));
    }

    @Override
    public List<Request> openOf(RequestKind kind, String subject) {
        Objects.requireNonNull(kind, "kind");
        var type = kind == RequestKind.SCHEDULE
                ? RequestKind.SCHEDULE_TYPE
                : Objects.requireNonNull(subject, "subject");
        return sql.run("listing the sent " + kind.typeKey(subject) + " requests", session -> session.list(
                "SELECT " + COLUMNS + " FROM REQ_TRACK WHERE REQ_TYPE = ? AND STATUS = 'SENT' ORDER BY CREATED_AT, ID",
                JdbcRequestTrack::request, type));
    }

    @Override
    public List<Request> pending() {
        return sql.run("listing the pending requests", session -> session.list(
                "SELECT " + COLUMNS + " FROM REQ_TRACK WHERE STATUS = 'PENDING' ORDER BY CREATED_AT, ID",
                JdbcRequestTrack::request));
    }

    @Override
    public boolean complete(long id, long responseMsgId, MatchMode mode, Instant at) {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(at, "at");
        return sql.run("completing request " + id + " by message " + responseMsgId, session -> session.update(
                "UPDATE REQ_TRACK SET STATUS = 'DONE', RESP_MSG_ID = ?, MATCH_MODE = ?, DONE_AT = ?"
                        + " WHERE ID = ? AND STATUS = 'SENT'", responseMsgId, mode.name(), at, id)) == 1;
    }

    @Override
    public int expireOpenBefore(Instant cutoff, Instant now) {
        Objects.requireNonNull(cutoff, "cutoff");
        Objects.requireNonNull(now, "now");
        return sql.run("expiring requests created before " + cutoff, session -> session.update(
                "UPDATE REQ_TRACK SET STATUS = 'EXPIRED', DONE_AT = ? WHERE STATUS IN " + OPEN + " AND CREATED_AT < ?",
                now, cutoff));
    }

    private static Request request(StoreJdbc.Row row) throws SQLException {
        var type = row.text("REQ_TYPE");
        var kind = RequestKind.SCHEDULE_TYPE.equals(type) ? RequestKind.SCHEDULE : RequestKind.REFERENCE;
        var mode = row.text("MATCH_MODE");
        return new Request(row.longValue("ID"), kind, kind == RequestKind.SCHEDULE ? null : type,
                row.day("COVER_DAY"), row.text("SENDER"), RequestStatus.valueOf(row.text("STATUS")),
                row.text("REQ_SEQN"), row.nullableLong("OUT_MSG_ID"), row.instant("WINDOW_START"),
                row.instant("WINDOW_END"), row.instant("CREATED_AT"), row.instant("SENT_AT"), row.instant("DONE_AT"),
                row.nullableLong("RESP_MSG_ID"), mode == null ? null : MatchMode.valueOf(mode));
    }
}
