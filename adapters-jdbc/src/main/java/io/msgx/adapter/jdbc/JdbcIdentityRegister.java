package io.msgx.adapter.jdbc;

import io.msgx.pipeline.port.IdentityRegister;
import io.msgx.pipeline.port.MessageQueue;
import io.msgx.pipeline.record.IdentityBinding;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.store.IdentityBinder;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

import static io.msgx.adapter.jdbc.ProcStateRows.COLUMNS;

/**
 * The business identities on {@code PROC_STATE} ({@link IdentityRegister}): binding a message to its identity once,
 * and the look-ups by identity ({@link ProcStateRows} says what the {@code PROC_STATE} ports share and guarantee).
 */
public class JdbcIdentityRegister implements IdentityRegister {

    /** The statements' connection: auto-commit, or one transaction's. */
    protected final StoreJdbc sql;
    /** The queue on the same connection, whose records tell a binding kept from an earlier attempt. */
    protected final MessageQueue queue;

    public JdbcIdentityRegister(StoreJdbc sql, MessageQueue queue) {
        this.sql = sql;
        this.queue = Objects.requireNonNull(queue, "queue");
    }

    @Override
    public Optional<ProcRecord> findByIdentity(String identityKey) {
        return sql.run("reading the processing record of identity " + identityKey, session -> session.one(
                "SELECT " + COLUMNS + " FROM PROC_STATE WHERE IDENTITY_KEY = ?", ProcStateRows::recordOf,
                identityKey));
    }

    @Override
    public Optional<String> latestIdentityKey() {
        return sql.run("reading the latest identity key", session -> session.one(sql.firstRows(
                        "SELECT IDENTITY_KEY FROM PROC_STATE WHERE IDENTITY_KEY IS NOT NULL ORDER BY MSG_ID DESC"),
                row -> row.text("IDENTITY_KEY"), 1));
    }

    @Override
    public OptionalLong holderOf(String identityKey) {
        return sql.run("reading the holder of identity " + identityKey, session -> session.one(
                "SELECT MSG_ID FROM PROC_STATE WHERE IDENTITY_KEY = ?", row -> row.longValue("MSG_ID"), identityKey)
                .map(OptionalLong::of).orElse(OptionalLong.empty()));
    }

    @Override
    public BindAttempt bindIfUnbound(long msgId, String identityKey, Instant now) {
        Objects.requireNonNull(identityKey, "identityKey");
        if (identityKey.isEmpty() && sql.dialect().storesEmptyTextAsNull()) {
            throw new IllegalArgumentException("message " + msgId + ": an empty identity key cannot be bound (Oracle "
                    + "stores '' as NULL, which means no identity); the codec must derive SNDR|TYPE|STYP|SEQN");
        }
        return sql.runOrRecover("binding identity " + identityKey + " to message " + msgId,
                session -> session.update("UPDATE PROC_STATE SET IDENTITY_KEY = ?, UPDATED_AT = ?"
                        + " WHERE MSG_ID = ? AND IDENTITY_KEY IS NULL", identityKey, now, msgId) == 1
                        ? BindAttempt.BOUND : BindAttempt.UNCHANGED,
                failure -> {
                    if (sql.failures().isUniqueViolation(failure)) {
                        return BindAttempt.TAKEN;
                    }
                    throw failure;
                });
    }

    @Override
    public Map<Long, IdentityBinding> bindIdentities(List<IdentityClaim> claims, Instant now) {
        return IdentityBinder.bindEach(this, queue, claims, now);
    }
}
