package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.JdbcIdentityRegister;
import io.msgx.adapter.jdbc.SqlDialect.KeyLookup;
import io.msgx.adapter.jdbc.StoreDefectException;
import io.msgx.adapter.jdbc.StoreJdbc;
import io.msgx.pipeline.port.MessageQueue;
import io.msgx.pipeline.record.IdentityBinding;
import io.msgx.pipeline.store.IdentityBinder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.msgx.adapter.pg.PgMessageQueue.MSG_ID;

/**
 * The business identities on PostgreSQL: the shared statements ({@link JdbcIdentityRegister}), with the binding of
 * a group's identities one unit of three statements whatever their number ({@link UnnestRows}). The batched binding
 * is atomic: in auto-commit a transaction of its own, bound to a caller's transaction a savepoint, so a refusal
 * undoes only its own writes.
 */
final class PgIdentityRegister extends JdbcIdentityRegister {

    /**
     * Binds identities to messages that have none yet, one row per message in the arrays: ID, identity key; the time,
     * bound first.
     */
    private static final String BIND_IDENTITIES = "UPDATE PROC_STATE SET IDENTITY_KEY = b.identity_key,"
            + " UPDATED_AT = cast(? as timestamptz) FROM "
            + UnnestRows.unnest(List.of(MSG_ID, new StoreJdbc.Column("identity_key", String.class)), "b")
            + " WHERE PROC_STATE.MSG_ID = b.msg_id AND PROC_STATE.IDENTITY_KEY IS NULL";

    private static final Logger LOG = LoggerFactory.getLogger(PgIdentityRegister.class);

    PgIdentityRegister(StoreJdbc sql, MessageQueue queue) {
        super(sql, queue);
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
            return IdentityBinder.bindEach(this, queue, claims, now);
        }
    }

    private Map<Long, IdentityBinding> bindAll(StoreJdbc.Session session, List<IdentityClaim> claims, Instant now)
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
}
