package io.msgx.adapter.pg;

import io.msgx.adapter.pg.jooq.tables.records.ProcStateRecord;
import io.msgx.pipeline.store.ErrorClass;
import io.msgx.pipeline.store.IdentityBinding;
import io.msgx.pipeline.store.ProcRecord;
import io.msgx.pipeline.store.ProcStates;
import io.msgx.pipeline.store.ProcStatus;
import io.msgx.pipeline.store.Terminal;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static io.msgx.adapter.pg.jooq.Tables.PROC_STATE;
import static org.jooq.impl.DSL.count;
import static org.jooq.impl.DSL.min;

/**
 * {@link ProcStates} on {@code PROC_STATE}. Every state change is one conditional UPDATE whose row count is the
 * answer ("false when not open"), so two racing writers can never both win. Used either per statement in
 * auto-commit, or bound to one transaction ({@code inTransaction}).
 */
final class PgProcStates implements ProcStates {

    private static final List<String> OPEN = List.of(ProcStatus.PENDING.name(), ProcStatus.FAILED.name());
    private static final int LAST_ERROR_WIDTH = PROC_STATE.LAST_ERROR.getDataType().length();
    /** SQLState of a unique violation: another message took the identity between our read and our update. */
    private static final String UNIQUE_VIOLATION = "23505";
    private static final int BIND_RACES_TOLERATED = 3;

    private static final Logger LOG = LoggerFactory.getLogger(PgProcStates.class);

    private final DSLContext dsl;
    private final boolean inTransaction;

    PgProcStates(DSLContext dsl, boolean inTransaction) {
        this.dsl = dsl;
        this.inTransaction = inTransaction;
    }

    @Override
    public boolean insertIfAbsent(long msgId, Instant receivedAt, Instant enqueuedAt) {
        return StoreOperation.run("enqueueing message " + msgId, () -> dsl.insertInto(PROC_STATE)
                .set(PROC_STATE.MSG_ID, msgId)
                .set(PROC_STATE.STATE, ProcStatus.PENDING.name())
                .set(PROC_STATE.ATTEMPTS, 0)
                .set(PROC_STATE.RECEIVED_AT, receivedAt)
                .set(PROC_STATE.ENQUEUED_AT, enqueuedAt)
                .set(PROC_STATE.UPDATED_AT, enqueuedAt)
                .set(PROC_STATE.BACKFILL_ATTEMPTS, 0)
                .onConflict(PROC_STATE.MSG_ID).doNothing()
                .execute() == 1);
    }

    @Override
    public Optional<ProcRecord> find(long msgId) {
        return StoreOperation.run("reading the processing record of message " + msgId, () -> dsl
                .selectFrom(PROC_STATE).where(PROC_STATE.MSG_ID.eq(msgId))
                .fetchOptional().map(PgProcStates::recordOf));
    }

    @Override
    public Optional<ProcRecord> head() {
        return StoreOperation.run("reading the head of the queue", () -> dsl
                .selectFrom(PROC_STATE).where(PROC_STATE.STATE.in(OPEN))
                .orderBy(PROC_STATE.MSG_ID).limit(1)
                .fetchOptional().map(PgProcStates::recordOf));
    }

    @Override
    public IdentityBinding bindIdentity(long msgId, String identityKey, Instant now) {
        return StoreOperation.run("binding identity " + identityKey + " to message " + msgId, () -> {
            for (int race = 0; race < BIND_RACES_TOLERATED; race++) {
                var holder = holderOf(identityKey);
                if (holder.isPresent()) {
                    return holder.getAsLong() == msgId
                            ? new IdentityBinding.Bound()
                            : new IdentityBinding.HeldBy(holder.getAsLong());
                }
                var bound = tryBind(msgId, identityKey, now);
                if (bound.isEmpty()) {
                    continue; // another message bound the identity after our read: ask again who holds it
                }
                if (bound.get()) {
                    return new IdentityBinding.Bound();
                }
                var kept = dsl.select(PROC_STATE.IDENTITY_KEY).from(PROC_STATE).where(PROC_STATE.MSG_ID.eq(msgId))
                        .fetchOptional();
                if (kept.isEmpty()) {
                    throw new IllegalStateException("message " + msgId + " has no PROC_STATE row: enqueue it "
                            + "(insertIfAbsent) before binding its identity " + identityKey);
                }
                if (!identityKey.equals(kept.get().value1())) {
                    LOG.warn("message {} keeps identity {} from an earlier attempt; this attempt derived {} "
                            + "(did the codec change?)", msgId, kept.get().value1(), identityKey);
                }
                return new IdentityBinding.Bound();
            }
            throw new IllegalStateException("identity " + identityKey + " kept changing holder while message " + msgId
                    + " tried to bind it; leave the message open and retry it");
        });
    }

    private OptionalLong holderOf(String identityKey) {
        return dsl.select(PROC_STATE.MSG_ID).from(PROC_STATE).where(PROC_STATE.IDENTITY_KEY.eq(identityKey))
                .fetchOptional(PROC_STATE.MSG_ID)
                .map(OptionalLong::of).orElse(OptionalLong.empty());
    }

    /**
     * The conditional bind: true when bound, false when the message has an identity already (or no row), empty
     * when the unique index refused it. Inside a transaction it runs under a savepoint, so a refusal does not
     * abort the transaction.
     */
    private Optional<Boolean> tryBind(long msgId, String identityKey, Instant now) {
        var update = dsl.update(PROC_STATE)
                .set(PROC_STATE.IDENTITY_KEY, identityKey)
                .set(PROC_STATE.UPDATED_AT, now)
                .where(PROC_STATE.MSG_ID.eq(msgId))
                .and(PROC_STATE.IDENTITY_KEY.isNull());
        try {
            if (!inTransaction) {
                return Optional.of(update.execute() == 1);
            }
            return Optional.of(dsl.connectionResult(connection -> {
                var savepoint = connection.setSavepoint();
                try {
                    int rows = update.execute();
                    connection.releaseSavepoint(savepoint);
                    return rows == 1;
                } catch (DataAccessException e) {
                    connection.rollback(savepoint);
                    throw e;
                }
            }));
        } catch (DataAccessException e) {
            if (UNIQUE_VIOLATION.equals(e.sqlState())) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public boolean finish(long msgId, Terminal terminal, Instant now) {
        return StoreOperation.run("ending message " + msgId + " as " + terminal.status(), () -> dsl
                .update(PROC_STATE)
                .set(PROC_STATE.STATE, terminal.status().name())
                .set(PROC_STATE.ERROR_CLASS, terminal.errorClass() == null ? null : terminal.errorClass().name())
                .set(PROC_STATE.LAST_ERROR, fitted(terminal.reason()))
                .set(PROC_STATE.UPDATED_AT, now)
                .set(PROC_STATE.BACKFILL_NEXT_AT, now)
                .where(PROC_STATE.MSG_ID.eq(msgId))
                .and(PROC_STATE.STATE.in(OPEN))
                .execute() == 1);
    }

    @Override
    public boolean recordFailure(long msgId, ErrorClass errorClass, String error, Instant nextAttemptAt, Instant now) {
        return StoreOperation.run("recording a failed attempt of message " + msgId, () -> dsl
                .update(PROC_STATE)
                .set(PROC_STATE.STATE, ProcStatus.FAILED.name())
                .set(PROC_STATE.ATTEMPTS, PROC_STATE.ATTEMPTS.plus(1))
                .set(PROC_STATE.ERROR_CLASS, errorClass.name())
                .set(PROC_STATE.LAST_ERROR, fitted(error))
                .set(PROC_STATE.NEXT_ATTEMPT_AT, nextAttemptAt)
                .set(PROC_STATE.UPDATED_AT, now)
                .where(PROC_STATE.MSG_ID.eq(msgId))
                .and(PROC_STATE.STATE.in(OPEN))
                .execute() == 1);
    }

    @Override
    public boolean exhaust(long msgId, Instant now) {
        return StoreOperation.run("ending message " + msgId + " as DEAD(EXHAUSTED)", () -> dsl
                .update(PROC_STATE)
                .set(PROC_STATE.STATE, ProcStatus.DEAD.name())
                .set(PROC_STATE.ERROR_CLASS, ErrorClass.EXHAUSTED.name())
                .set(PROC_STATE.UPDATED_AT, now)
                .set(PROC_STATE.BACKFILL_NEXT_AT, now)
                .where(PROC_STATE.MSG_ID.eq(msgId))
                .and(PROC_STATE.STATE.eq(ProcStatus.FAILED.name()))
                .execute() == 1);
    }

    @Override
    public Backlog backlog() {
        return StoreOperation.run("counting the backlog", () -> {
            var row = dsl.select(
                            count().filterWhere(PROC_STATE.STATE.eq(ProcStatus.PENDING.name())),
                            count().filterWhere(PROC_STATE.STATE.eq(ProcStatus.FAILED.name())),
                            count().filterWhere(PROC_STATE.STATE.eq(ProcStatus.SUCCEEDED.name())),
                            count().filterWhere(PROC_STATE.STATE.eq(ProcStatus.SKIPPED.name())),
                            count().filterWhere(PROC_STATE.STATE.eq(ProcStatus.DEAD.name())),
                            min(PROC_STATE.ENQUEUED_AT).filterWhere(PROC_STATE.STATE.in(OPEN)))
                    .from(PROC_STATE)
                    .where(PROC_STATE.STATE.ne(ProcStatus.ARCHIVED.name()))
                    .fetchSingle();
            return new Backlog(row.value1(), row.value2(), row.value3(), row.value4(), row.value5(), row.value6());
        });
    }

    /** Reason or error text cut to the column's width: the text is for operators, not worth a failed write. */
    private static String fitted(String text) {
        if (text == null || text.length() <= LAST_ERROR_WIDTH) {
            return text;
        }
        int end = Character.isHighSurrogate(text.charAt(LAST_ERROR_WIDTH - 1)) ? LAST_ERROR_WIDTH - 1 : LAST_ERROR_WIDTH;
        return text.substring(0, end);
    }

    private static ProcRecord recordOf(ProcStateRecord row) {
        return new ProcRecord(
                row.getMsgId(),
                ProcStatus.valueOf(row.getState()),
                row.getIdentityKey(),
                row.getAttempts(),
                row.getNextAttemptAt(),
                row.getErrorClass() == null ? null : ErrorClass.valueOf(row.getErrorClass()),
                row.getLastError(),
                row.getReceivedAt(),
                row.getEnqueuedAt(),
                row.getUpdatedAt(),
                row.getBackfillNextAt(),
                row.getBackfillAt(),
                row.getBackfillAttempts(),
                row.getBackfillAbandonedAt(),
                row.getBackfillAbandonedReason());
    }
}
