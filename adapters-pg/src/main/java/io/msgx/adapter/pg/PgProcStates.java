package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.JdbcProcStates;
import io.msgx.adapter.jdbc.Sql;
import io.msgx.adapter.jdbc.SqlDialect.KeyLookup;
import io.msgx.adapter.jdbc.StoreDefectException;
import io.msgx.pipeline.store.IdentityBinder;
import io.msgx.pipeline.store.IdentityBinding;
import io.msgx.pipeline.store.Terminal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The {@code PROC_STATE} ports on PostgreSQL: the shared statements ({@link JdbcProcStates}), with the batches of the
 * hot path each one statement planned once, whatever the number of messages ({@link UnnestRows}): the enqueue, the
 * end of a group, and the binding of its identities. The batched binding is atomic: in auto-commit a transaction of
 * its own, bound to a caller's transaction a savepoint, so a refusal undoes only its own writes. The cleanup of
 * archived shadows re-checks the state so that it cannot use the shadow index twice (D-42).
 */
final class PgProcStates extends JdbcProcStates {

    private static final Sql.Column MSG_ID = new Sql.Column("msg_id", Long.class);

    /** Enqueues messages as PENDING unless their row exists: ID, received time; then the enqueue time, first. */
    private static final String ENQUEUE = "INSERT INTO PROC_STATE (MSG_ID, STATE, ATTEMPTS, RECEIVED_AT, ENQUEUED_AT,"
            + " UPDATED_AT, BACKFILL_ATTEMPTS) SELECT r.msg_id, 'PENDING', 0, r.received_at, e.at, e.at, 0"
            + " FROM (SELECT cast(? as timestamptz) AS at) e, "
            + UnnestRows.unnest(List.of(MSG_ID, new Sql.Column("received_at", Instant.class)), "r")
            + " ON CONFLICT (MSG_ID) DO NOTHING";

    /**
     * Ends open messages, one row per message in the arrays: ID, state, error class, reason; the end time twice
     * (updated, and the backfill intent), bound first. A message no longer open is left alone.
     */
    private static final String END_MESSAGES = "UPDATE PROC_STATE SET STATE = e.state, ERROR_CLASS = e.error_class,"
            + " LAST_ERROR = e.last_error, UPDATED_AT = cast(? as timestamptz),"
            + " BACKFILL_NEXT_AT = cast(? as timestamptz) FROM "
            + UnnestRows.unnest(List.of(MSG_ID, new Sql.Column("state", String.class),
                    new Sql.Column("error_class", String.class), new Sql.Column("last_error", String.class)), "e")
            + " WHERE PROC_STATE.MSG_ID = e.msg_id AND PROC_STATE.STATE IN " + OPEN;

    /**
     * Binds identities to messages that have none yet, one row per message in the arrays: ID, identity key; the time,
     * bound first.
     */
    private static final String BIND_IDENTITIES = "UPDATE PROC_STATE SET IDENTITY_KEY = b.identity_key,"
            + " UPDATED_AT = cast(? as timestamptz) FROM "
            + UnnestRows.unnest(List.of(MSG_ID, new Sql.Column("identity_key", String.class)), "b")
            + " WHERE PROC_STATE.MSG_ID = b.msg_id AND PROC_STATE.IDENTITY_KEY IS NULL";

    /**
     * The oldest shadows archived before a cutoff (bound twice, around the limit), found through
     * {@code IX_PROC_STATE_SHADOW} and deleted by key: the re-check of the state is written so it cannot use that
     * index too, which a planner with statistics taken before the rows were archived ran as a nested loop re-reading
     * the batch per row (D-42).
     */
    static final String FORGET_ARCHIVED = "DELETE FROM PROC_STATE WHERE MSG_ID IN (SELECT d.MSG_ID FROM PROC_STATE d"
            + " WHERE d.STATE = 'ARCHIVED' AND d.UPDATED_AT < ? ORDER BY d.UPDATED_AT, d.MSG_ID LIMIT ?)"
            + " AND (STATE || '') = 'ARCHIVED' AND UPDATED_AT < ?";

    private static final Logger LOG = LoggerFactory.getLogger(PgProcStates.class);

    PgProcStates(Sql sql) {
        super(sql);
    }

    @Override
    public int insertAllIfAbsent(Map<Long, Instant> receivedAt, Instant enqueuedAt) {
        Objects.requireNonNull(enqueuedAt, "enqueuedAt");
        if (receivedAt.isEmpty()) {
            return 0;
        }
        var rows = receivedAt.entrySet().stream().map(e -> new Object[] {e.getKey(), e.getValue()}).toList();
        return sql.run("enqueueing " + rows.size() + " message(s)",
                session -> UnnestRows.execute(session.connection(), ENQUEUE, List.of(enqueuedAt), 2, rows));
    }

    @Override
    public boolean finish(long msgId, Terminal terminal, Instant now) {
        return finishAll(List.of(new Ending(msgId, terminal)), now) == 1;
    }

    @Override
    public int finishAll(List<Ending> endings, Instant now) {
        if (endings.isEmpty()) {
            return 0;
        }
        var rows = new ArrayList<Object[]>(endings.size());
        for (var ending : endings) {
            var terminal = ending.terminal();
            rows.add(new Object[] {ending.msgId(), terminal.status().name(),
                    terminal.errorClass() == null ? null : terminal.errorClass().name(),
                    sql.fitted(terminal.reason(), LAST_ERROR_WIDTH)});
        }
        var operation = endings.size() == 1
                ? "ending message " + endings.get(0).msgId() + " as " + endings.get(0).terminal().status()
                : "ending " + endings.size() + " message(s)";
        return sql.run(operation,
                session -> UnnestRows.execute(session.connection(), END_MESSAGES, List.of(now, now), 4, rows));
    }

    /**
     * The claims in one unit of three statements whatever their number: who holds the claimed identities, which
     * claimants are bound already, then one statement of binds. Should another message bind one of the identities
     * meanwhile (a unique violation), the unit is undone and the claims are bound one by one, which settles such races.
     */
    @Override
    public Map<Long, IdentityBinding> bindIdentities(List<IdentityClaim> claims, Instant now) {
        if (claims.isEmpty()) {
            return Map.of();
        }
        try {
            return sql.atomically("binding the identities of " + claims.size() + " message(s)",
                    session -> bindAll(session, claims, now), bound -> true);
        } catch (StoreDefectException e) {
            if (!sql.failures().holdsUniqueViolation(e)) {
                throw e;
            }
            LOG.info("An identity of messages {}..{} was bound meanwhile; binding them one by one",
                    claims.get(0).msgId(), claims.get(claims.size() - 1).msgId());
            return IdentityBinder.bindEach(this, this, claims, now);
        }
    }

    private Map<Long, IdentityBinding> bindAll(Sql.Session session, List<IdentityClaim> claims, Instant now)
            throws SQLException {
        // Who holds the claimed identities, and which claimants kept one from an earlier attempt: one statement,
        // each half by its own index (an OR of the two would scan the table).
        var keys = claims.stream().map(IdentityClaim::identityKey).collect(Collectors.toSet());
        var claimants = claims.stream().map(IdentityClaim::msgId).collect(Collectors.toSet());
        var holders = new HashMap<String, Long>();
        var kept = new HashMap<Long, String>();
        // PostgreSQL's oneOf is one condition whatever the number of keys.
        var heldKeys = sql.oneOf("IDENTITY_KEY", KeyLookup.BY_JOIN, keys).get(0);
        var claimantIds = sql.oneOf("MSG_ID", KeyLookup.BY_JOIN, claimants).get(0);
        for (var bound : session.list("SELECT IDENTITY_KEY, MSG_ID FROM PROC_STATE WHERE " + heldKeys.sql()
                        + " UNION ALL SELECT IDENTITY_KEY, MSG_ID FROM PROC_STATE WHERE " + claimantIds.sql()
                        + " AND IDENTITY_KEY IS NOT NULL",
                row -> Map.entry(row.text("IDENTITY_KEY"), row.longValue("MSG_ID")), heldKeys, claimantIds)) {
            if (keys.contains(bound.getKey())) {
                holders.put(bound.getKey(), bound.getValue());
            }
            if (claimants.contains(bound.getValue())) {
                kept.put(bound.getValue(), bound.getKey());
            }
        }
        var bindings = new LinkedHashMap<Long, IdentityBinding>();
        var binds = new ArrayList<Object[]>();
        for (var claim : claims) {
            var holder = holders.get(claim.identityKey());
            if (holder != null) {
                bindings.put(claim.msgId(), holder == claim.msgId()
                        ? new IdentityBinding.Bound() : new IdentityBinding.HeldBy(holder));
                continue;
            }
            var own = kept.get(claim.msgId());
            if (own != null) {
                IdentityBinder.keptFromAnEarlierAttempt(claim.msgId(), own, claim.identityKey());
            } else {
                holders.put(claim.identityKey(), claim.msgId());
                binds.add(new Object[] {claim.msgId(), claim.identityKey()});
            }
            bindings.put(claim.msgId(), new IdentityBinding.Bound());
        }
        int bound = UnnestRows.execute(session.connection(), BIND_IDENTITIES, List.of(now), 2, binds);
        if (bound != binds.size()) {
            throw new IllegalStateException("only " + bound + " of " + binds.size() + " identities could be bound: "
                    + "a claimant has no PROC_STATE row (enqueue before binding)");
        }
        return bindings;
    }

    @Override
    public int forgetArchivedBefore(Instant cutoff, int limit) {
        Objects.requireNonNull(cutoff, "cutoff");
        Sql.requireLimit(limit);
        return sql.run("forgetting dedup shadows archived before " + cutoff,
                session -> session.update(FORGET_ARCHIVED, cutoff, limit, cutoff));
    }
}
