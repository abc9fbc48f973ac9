package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.AtomicUnit;
import io.msgx.adapter.jdbc.AtomicUnit.KeptSavepoint;
import io.msgx.adapter.pg.jooq.tables.records.ProcStateRecord;
import io.msgx.pipeline.port.BackfillMarks;
import io.msgx.pipeline.port.IdentityRegister;
import io.msgx.pipeline.port.MessageArchive;
import io.msgx.pipeline.port.MessageQueries;
import io.msgx.pipeline.port.MessageQueue;
import io.msgx.pipeline.port.MessageReplays;
import io.msgx.pipeline.store.ErrorClass;
import io.msgx.pipeline.store.IdentityBinder;
import io.msgx.pipeline.store.IdentityBinding;
import io.msgx.pipeline.store.ProcRecord;
import io.msgx.pipeline.store.ProcStatus;
import io.msgx.pipeline.store.Terminal;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.InsertSetMoreStep;
import org.jooq.InsertSetStep;
import org.jooq.Query;
import org.jooq.exception.DataAccessException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static io.msgx.adapter.pg.jooq.Tables.BACKFILL_RECONCILIATION;
import static io.msgx.adapter.pg.jooq.Tables.PROC_STATE;
import static io.msgx.adapter.pg.jooq.Tables.PROC_STATE_HST;
import static io.msgx.pipeline.store.ColumnText.fitted;
import static org.jooq.impl.DSL.any;
import static org.jooq.impl.DSL.count;
import static org.jooq.impl.DSL.exists;
import static org.jooq.impl.DSL.inline;
import static org.jooq.impl.DSL.min;
import static org.jooq.impl.DSL.select;
import static org.jooq.impl.DSL.selectOne;
import static org.jooq.impl.DSL.val;

/**
 * The {@code PROC_STATE} ports ({@link MessageQueue}, {@link IdentityRegister}, {@link BackfillMarks},
 * {@link MessageReplays}, {@link MessageArchive}, {@link MessageQueries}) on {@code PROC_STATE}. Every state change
 * is one conditional UPDATE whose row count is the answer ("false when not open"), so two racing writers can never
 * both win. Used either per statement in auto-commit, or bound to one transaction ({@code inTransaction}).
 *
 * <p>The operations of several statements (archiving a record, reopening and reconciling abandoned marks) are
 * pipeline-core's ({@code RecordArchiving}, {@code MarkSettlement}), over the single statements here. The one left is
 * the batched identity binding, atomic: in auto-commit a transaction of its own, bound to a caller's transaction a
 * savepoint, so a refusal undoes only its own writes.
 *
 * <p>Backfill facts: {@code BACKFILL_NEXT_AT} non-null means a mark is owed, {@code BACKFILL_AT} non-null that it
 * is confirmed, {@code BACKFILL_ABANDONED_AT} non-null that automatic retries stopped (not confirmed). Every
 * backfill change advances {@code UPDATED_AT}, and so does an operator's reconciliation: settling a row starts its
 * archive threshold (seeds §9.3: "终态与了结都推进它"). {@code ARCHIVED} shadows are excluded explicitly from the
 * head, the backlog, the backfill scan and every backfill change.
 */
final class PgProcStates
        implements MessageQueue, IdentityRegister, BackfillMarks, MessageReplays, MessageArchive, MessageQueries {

    private static final List<String> OPEN = List.of(ProcStatus.PENDING.name(), ProcStatus.FAILED.name());
    /*
     * State constants of the lifecycle queries are rendered inline, so the partial indexes (open, backfill, archive,
     * shadow) match even under a generic (prepared) plan.
     */
    private static final List<Field<String>> OPEN_INLINE = List.of(inline(ProcStatus.PENDING.name()),
            inline(ProcStatus.FAILED.name()));
    private static final List<Field<String>> TERMINAL = List.of(inline(ProcStatus.SUCCEEDED.name()),
            inline(ProcStatus.SKIPPED.name()), inline(ProcStatus.DEAD.name()));
    private static final List<Field<String>> REPLAYABLE_STATES = List.of(inline(ProcStatus.FAILED.name()),
            inline(ProcStatus.DEAD.name()));
    private static final Field<String> ARCHIVED = inline(ProcStatus.ARCHIVED.name());
    private static final int ABANDONED_REASON_WIDTH = PROC_STATE.BACKFILL_ABANDONED_REASON.getDataType().length();
    private static final int NOTE_WIDTH = BACKFILL_RECONCILIATION.NOTE.getDataType().length();
    private static final int LAST_ERROR_WIDTH = PROC_STATE.LAST_ERROR.getDataType().length();
    /** SQLState of a unique violation: another message took the identity between our read and our update. */
    private static final String UNIQUE_VIOLATION = "23505";

    /**
     * Ends open messages, one row per message in the arrays ({@link UnnestRows}): ID, state, error class, reason; the
     * end time twice (updated, and the backfill intent), bound first. A message no longer open is left alone.
     */
    private static final String END_MESSAGES = """
            update "proc_state" set "state" = e."state", "error_class" = e."error_class", "last_error" = e."last_error",
                "updated_at" = cast(? as timestamptz), "backfill_next_at" = cast(? as timestamptz)
            from %s
            where "proc_state"."msg_id" = e."msg_id" and "proc_state"."state" in (%s)""".formatted(
            UnnestRows.source(List.of(PROC_STATE.MSG_ID, PROC_STATE.STATE, PROC_STATE.ERROR_CLASS, PROC_STATE.LAST_ERROR),
                    "e"),
            OPEN.stream().map(state -> "'" + state + "'").collect(Collectors.joining(", ")));

    /**
     * Binds identities to messages that have none yet, one row per message in the arrays: ID, identity key; the time,
     * bound first.
     */
    private static final String BIND_IDENTITIES = """
            update "proc_state" set "identity_key" = b."identity_key", "updated_at" = cast(? as timestamptz)
            from %s
            where "proc_state"."msg_id" = b."msg_id" and "proc_state"."identity_key" is null""".formatted(
            UnnestRows.source(List.of(PROC_STATE.MSG_ID, PROC_STATE.IDENTITY_KEY), "b"));

    private static final Logger LOG = LoggerFactory.getLogger(PgProcStates.class);

    private final DSLContext dsl;
    private final boolean inTransaction;

    PgProcStates(DSLContext dsl, boolean inTransaction) {
        this.dsl = dsl;
        this.inTransaction = inTransaction;
    }

    @Override
    public boolean insertIfAbsent(long msgId, Instant receivedAt, Instant enqueuedAt) {
        return StoreOperation.run("enqueueing message " + msgId, () -> enqueueing(msgId, receivedAt, enqueuedAt)
                .execute() == 1);
    }

    @Override
    public int insertAllIfAbsent(Map<Long, Instant> receivedAt, Instant enqueuedAt) {
        if (receivedAt.isEmpty()) {
            return 0;
        }
        return StoreOperation.run("enqueueing " + receivedAt.size() + " message(s)", () -> {
            InsertSetMoreStep<ProcStateRecord> insert = null;
            for (var message : receivedAt.entrySet()) {
                insert = pending(insert == null ? dsl.insertInto(PROC_STATE) : insert.newRecord(), message.getKey(),
                        message.getValue(), enqueuedAt);
            }
            return insert.onConflict(PROC_STATE.MSG_ID).doNothing().execute();
        });
    }

    private Query enqueueing(long msgId, Instant receivedAt, Instant enqueuedAt) {
        return pending(dsl.insertInto(PROC_STATE), msgId, receivedAt, enqueuedAt).onConflict(PROC_STATE.MSG_ID).doNothing();
    }

    /** One new PENDING row; rows are chained with {@code newRecord()} into one multi-row INSERT. */
    private static InsertSetMoreStep<ProcStateRecord> pending(InsertSetStep<ProcStateRecord> into, long msgId,
                                                             Instant receivedAt, Instant enqueuedAt) {
        return into
                .set(PROC_STATE.MSG_ID, msgId)
                .set(PROC_STATE.STATE, ProcStatus.PENDING.name())
                .set(PROC_STATE.ATTEMPTS, 0)
                .set(PROC_STATE.RECEIVED_AT, receivedAt)
                .set(PROC_STATE.ENQUEUED_AT, enqueuedAt)
                .set(PROC_STATE.UPDATED_AT, enqueuedAt)
                .set(PROC_STATE.BACKFILL_ATTEMPTS, 0);
    }

    @Override
    public Optional<ProcRecord> find(long msgId) {
        return StoreOperation.run("reading the processing record of message " + msgId, () -> dsl
                .selectFrom(PROC_STATE).where(PROC_STATE.MSG_ID.eq(msgId))
                .fetchOptional().map(PgProcStates::recordOf));
    }

    @Override
    public Optional<ProcRecord> findByIdentity(String identityKey) {
        return StoreOperation.run("reading the processing record of identity " + identityKey, () -> dsl
                .selectFrom(PROC_STATE).where(PROC_STATE.IDENTITY_KEY.eq(identityKey))
                .fetchOptional().map(PgProcStates::recordOf));
    }

    @Override
    public List<ProcRecord> withStatus(ProcStatus status, int limit) {
        return StoreOperation.run("listing " + status + " messages", () -> dsl
                .selectFrom(PROC_STATE).where(PROC_STATE.STATE.eq(status.name()))
                .orderBy(PROC_STATE.MSG_ID).limit(limit)
                .fetch().map(PgProcStates::recordOf));
    }

    @Override
    public Optional<ProcRecord> head() {
        // ARCHIVED is excluded explicitly, not only by the open states listed (seeds §9.3).
        return StoreOperation.run("reading the head of the queue", () -> dsl
                .selectFrom(PROC_STATE).where(PROC_STATE.STATE.in(OPEN_INLINE))
                .and(PROC_STATE.STATE.ne(ARCHIVED))
                .orderBy(PROC_STATE.MSG_ID).limit(1)
                .fetchOptional().map(PgProcStates::recordOf));
    }

    @Override
    public Optional<String> latestIdentityKey() {
        return StoreOperation.run("reading the latest identity key", () -> dsl
                .select(PROC_STATE.IDENTITY_KEY).from(PROC_STATE).where(PROC_STATE.IDENTITY_KEY.isNotNull())
                .orderBy(PROC_STATE.MSG_ID.desc()).limit(1)
                .fetchOptional(PROC_STATE.IDENTITY_KEY));
    }

    @Override
    public Map<Long, ProcRecord> findAll(Collection<Long> msgIds) {
        if (msgIds.isEmpty()) {
            return Map.of();
        }
        return StoreOperation.run("reading the processing records of " + msgIds.size() + " message(s)", () -> dsl
                .selectFrom(PROC_STATE).where(KeySet.contains(PROC_STATE.MSG_ID, msgIds.toArray(Long[]::new)))
                .fetchMap(PROC_STATE.MSG_ID, PgProcStates::recordOf));
    }

    @Override
    public List<ProcRecord> pendingRun(long watermark, int limit) {
        var open = StoreOperation.run("reading the pending run from the head", () -> dsl
                .selectFrom(PROC_STATE).where(PROC_STATE.STATE.in(OPEN_INLINE))
                .and(PROC_STATE.STATE.ne(ARCHIVED))
                .and(PROC_STATE.MSG_ID.le(watermark))
                .orderBy(PROC_STATE.MSG_ID).limit(limit)
                .fetch(PgProcStates::recordOf));
        var run = new ArrayList<ProcRecord>();
        for (var record : open) {
            if (record.status() != ProcStatus.PENDING) {
                break;
            }
            run.add(record);
        }
        return run;
    }

    /**
     * The claims in one transaction of three statements whatever their number: who holds the claimed identities,
     * which claimants are bound already, then one batch of binds. Should another message bind one of the
     * identities meanwhile (a unique violation), everything is rolled back and the claims are bound one by one,
     * which settles such races.
     */
    @Override
    public Map<Long, IdentityBinding> bindIdentities(List<IdentityClaim> claims, Instant now) {
        if (claims.isEmpty()) {
            return Map.of();
        }
        try {
            return StoreOperation.run("binding the identities of " + claims.size() + " message(s)",
                    () -> atomically(tx -> bindAll(tx, claims, now), bound -> true));
        } catch (DataAccessException e) {
            if (!UNIQUE_VIOLATION.equals(e.sqlState())) {
                throw e;
            }
            LOG.info("An identity of messages {}..{} was bound meanwhile; binding them one by one",
                    claims.get(0).msgId(), claims.get(claims.size() - 1).msgId());
            return IdentityBinder.bindEach(this, this, claims, now);
        }
    }

    private Map<Long, IdentityBinding> bindAll(DSLContext tx, List<IdentityClaim> claims, Instant now) {
        // Who holds the claimed identities, and which claimants kept one from an earlier attempt: one statement,
        // each half by its own index (an OR of the two would scan the table).
        var keys = claims.stream().map(IdentityClaim::identityKey).collect(Collectors.toSet());
        var claimants = claims.stream().map(IdentityClaim::msgId).collect(Collectors.toSet());
        var holders = new HashMap<String, Long>();
        var kept = new HashMap<Long, String>();
        for (var bound : tx.select(PROC_STATE.IDENTITY_KEY, PROC_STATE.MSG_ID).from(PROC_STATE)
                .where(KeySet.contains(PROC_STATE.IDENTITY_KEY, keys.toArray(String[]::new)))
                .unionAll(tx.select(PROC_STATE.IDENTITY_KEY, PROC_STATE.MSG_ID).from(PROC_STATE)
                        .where(KeySet.contains(PROC_STATE.MSG_ID, claimants.toArray(Long[]::new)))
                        .and(PROC_STATE.IDENTITY_KEY.isNotNull()))
                .fetch()) {
            if (keys.contains(bound.value1())) {
                holders.put(bound.value1(), bound.value2());
            }
            if (claimants.contains(bound.value2())) {
                kept.put(bound.value2(), bound.value1());
            }
        }
        var bindings = new LinkedHashMap<Long, IdentityBinding>();
        var binds = new ArrayList<IdentityClaim>();
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
                binds.add(claim);
            }
            bindings.put(claim.msgId(), new IdentityBinding.Bound());
        }
        if (!binds.isEmpty()) {
            var rows = binds.stream().map(claim -> new Object[] {claim.msgId(), claim.identityKey()}).toList();
            int bound = UnnestRows.execute(tx, BIND_IDENTITIES, List.of(now), 2, rows);
            if (bound != binds.size()) {
                throw new IllegalStateException("only " + bound + " of " + binds.size() + " identities could be bound: "
                        + "a claimant has no PROC_STATE row (enqueue before binding)");
            }
        }
        return bindings;
    }

    @Override
    public OptionalLong holderOf(String identityKey) {
        return StoreOperation.run("reading the holder of identity " + identityKey, () -> dsl
                .select(PROC_STATE.MSG_ID).from(PROC_STATE).where(PROC_STATE.IDENTITY_KEY.eq(identityKey))
                .fetchOptional(PROC_STATE.MSG_ID)
                .map(OptionalLong::of).orElse(OptionalLong.empty()));
    }

    /** Inside a transaction under a savepoint: a unique violation aborts a PostgreSQL transaction, not a statement. */
    @Override
    public BindAttempt bindIfUnbound(long msgId, String identityKey, Instant now) {
        var update = dsl.update(PROC_STATE)
                .set(PROC_STATE.IDENTITY_KEY, identityKey)
                .set(PROC_STATE.UPDATED_AT, now)
                .where(PROC_STATE.MSG_ID.eq(msgId))
                .and(PROC_STATE.IDENTITY_KEY.isNull());
        return StoreOperation.run("binding identity " + identityKey + " to message " + msgId, () -> {
            try {
                boolean bound = inTransaction
                        ? dsl.connectionResult(connection -> AtomicUnit.underSavepoint(connection,
                                KeptSavepoint.RELEASED, () -> update.execute() == 1, result -> true))
                        : update.execute() == 1;
                return bound ? BindAttempt.BOUND : BindAttempt.UNCHANGED;
            } catch (DataAccessException e) {
                if (UNIQUE_VIOLATION.equals(e.sqlState())) {
                    return BindAttempt.TAKEN;
                }
                throw e;
            }
        });
    }

    @Override
    public boolean finish(long msgId, Terminal terminal, Instant now) {
        return StoreOperation.run("ending message " + msgId + " as " + terminal.status(),
                () -> end(List.of(new Ending(msgId, terminal)), now) == 1);
    }

    @Override
    public int finishAll(List<Ending> endings, Instant now) {
        if (endings.isEmpty()) {
            return 0;
        }
        return StoreOperation.run("ending " + endings.size() + " message(s) from " + endings.get(0).msgId(),
                () -> end(endings, now));
    }

    /**
     * The conditional end of each message with its backfill intent, every message of the group in one statement
     * ({@link #END_MESSAGES}); returns how many ended.
     */
    private int end(List<Ending> endings, Instant now) {
        var rows = new ArrayList<Object[]>(endings.size());
        for (var ending : endings) {
            var terminal = ending.terminal();
            rows.add(new Object[] {ending.msgId(), terminal.status().name(),
                    terminal.errorClass() == null ? null : terminal.errorClass().name(),
                    fitted(terminal.reason(), LAST_ERROR_WIDTH)});
        }
        return UnnestRows.execute(dsl, END_MESSAGES, List.of(now, now), 4, rows);
    }

    @Override
    public boolean recordFailure(long msgId, ErrorClass errorClass, String error, Instant nextAttemptAt, Instant now) {
        return StoreOperation.run("recording a failed attempt of message " + msgId, () -> dsl
                .update(PROC_STATE)
                .set(PROC_STATE.STATE, ProcStatus.FAILED.name())
                .set(PROC_STATE.ATTEMPTS, PROC_STATE.ATTEMPTS.plus(1))
                .set(PROC_STATE.ERROR_CLASS, errorClass.name())
                .set(PROC_STATE.LAST_ERROR, fitted(error, LAST_ERROR_WIDTH))
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

    // --- backfill ---

    /** A terminal row whose mark is still owed and not abandoned; never an archived shadow. */
    private static Condition owed() {
        return owed(PROC_STATE.STATE);
    }

    /**
     * {@link #owed()} for rows already named by {@code MSG_ID}, the state re-checked ({@link KeySet#recheck}) so that
     * the planner cannot prove {@code IX_PROC_STATE_BACKFILL}'s predicate: with statistics taken while few marks were
     * owed (before a backlog was digested), it walked every owed row through that index for the keys (D-42).
     */
    private static Condition owedFoundByKey() {
        return owed(KeySet.recheck(PROC_STATE.STATE));
    }

    private static Condition owed(Field<String> state) {
        return state.in(TERMINAL)
                .and(state.ne(ARCHIVED))
                .and(PROC_STATE.BACKFILL_AT.isNull())
                .and(PROC_STATE.BACKFILL_ABANDONED_AT.isNull());
    }

    @Override
    public List<ProcRecord> backfillDue(Instant now, Instant overdueBefore, int limit) {
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(overdueBefore, "overdueBefore");
        requireLimit(limit);
        // Exactly the seeds' §6.1 predicate; the overdue branch reads ENQUEUED_AT (ours), never RECEIVED_AT.
        return StoreOperation.run("scanning for backfill due at " + now, () -> dsl
                .selectFrom(PROC_STATE)
                .where(owed())
                .and(PROC_STATE.BACKFILL_NEXT_AT.isNull()
                        .or(PROC_STATE.BACKFILL_NEXT_AT.le(now))
                        .or(PROC_STATE.ENQUEUED_AT.lt(overdueBefore)))
                .orderBy(PROC_STATE.BACKFILL_ATTEMPTS.asc(), PROC_STATE.MSG_ID.asc())
                .limit(limit)
                .fetch(PgProcStates::recordOf));
    }

    @Override
    public boolean backfillConfirmed(long msgId, Instant at) {
        Objects.requireNonNull(at, "at");
        return StoreOperation.run("confirming the mailbox mark of message " + msgId,
                () -> confirmingMarks(new Long[]{msgId}, at).execute() == 1);
    }

    @Override
    public int backfillConfirmedAll(Collection<Long> msgIds, Instant at) {
        Objects.requireNonNull(at, "at");
        if (msgIds.isEmpty()) {
            return 0;
        }
        return StoreOperation.run("confirming " + msgIds.size() + " mailbox mark(s)",
                () -> confirmingMarks(msgIds.toArray(Long[]::new), at).execute());
    }

    /** The confirmation of the owed marks of these messages. Package-private for the plan check of the tests. */
    Query confirmingMarks(Long[] msgIds, Instant at) {
        return dsl.update(PROC_STATE)
                .set(PROC_STATE.BACKFILL_AT, at)
                .set(PROC_STATE.BACKFILL_NEXT_AT, (Instant) null)
                .set(PROC_STATE.UPDATED_AT, at)
                .where(PROC_STATE.MSG_ID.eq(any(msgIds)))
                .and(owedFoundByKey());
    }

    @Override
    public boolean backfillFailed(long msgId, Instant nextAt, Instant now) {
        Objects.requireNonNull(now, "now");
        return StoreOperation.run("recording a failed mailbox mark of message " + msgId, () -> dsl
                .update(PROC_STATE)
                .set(PROC_STATE.BACKFILL_ATTEMPTS, PROC_STATE.BACKFILL_ATTEMPTS.plus(1))
                .set(PROC_STATE.BACKFILL_NEXT_AT, nextAt)
                .set(PROC_STATE.UPDATED_AT, now)
                .where(PROC_STATE.MSG_ID.eq(msgId))
                .and(owedFoundByKey())
                .execute() == 1);
    }

    @Override
    public boolean backfillAbandoned(long msgId, String reason, Instant at) {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(at, "at");
        return StoreOperation.run("abandoning the mailbox mark of message " + msgId + " (" + reason + ")", () -> dsl
                .update(PROC_STATE)
                .set(PROC_STATE.BACKFILL_ABANDONED_AT, at)
                .set(PROC_STATE.BACKFILL_ABANDONED_REASON, fitted(reason, ABANDONED_REASON_WIDTH))
                .set(PROC_STATE.UPDATED_AT, at)
                .where(PROC_STATE.MSG_ID.eq(msgId))
                .and(owedFoundByKey())
                .execute() == 1);
    }

    /** An abandoned terminal row (reconciled or not); never an archived shadow. */
    private static Condition abandoned() {
        return PROC_STATE.STATE.in(TERMINAL)
                .and(PROC_STATE.STATE.ne(ARCHIVED))
                .and(PROC_STATE.BACKFILL_AT.isNull())
                .and(PROC_STATE.BACKFILL_ABANDONED_AT.isNotNull());
    }

    @Override
    public List<AbandonedMark> abandonedMarks(int limit) {
        requireLimit(limit);
        var r = BACKFILL_RECONCILIATION;
        return StoreOperation.run("listing abandoned mailbox marks", () -> dsl
                .select(PROC_STATE.fields()).select(r.RECONCILED_AT, r.OPERATOR, r.NOTE)
                .from(PROC_STATE)
                .leftJoin(r).on(r.MSG_ID.eq(PROC_STATE.MSG_ID))
                .where(abandoned())
                .orderBy(PROC_STATE.BACKFILL_ABANDONED_AT.asc(), PROC_STATE.MSG_ID.asc())
                .limit(limit)
                .fetch(row -> new AbandonedMark(recordOf(row.into(PROC_STATE)), row.get(r.RECONCILED_AT),
                        row.get(r.OPERATOR), row.get(r.NOTE))));
    }

    @Override
    public List<Long> clearAbandonment(Collection<Long> msgIds, Instant now) {
        Objects.requireNonNull(now, "now");
        var ids = distinct(msgIds);
        if (ids.length == 0) {
            return List.of();
        }
        return StoreOperation.run("reopening " + ids.length + " abandoned mailbox mark(s)", () -> {
            var reopened = new ArrayList<>(dsl
                    .update(PROC_STATE)
                    .set(PROC_STATE.BACKFILL_ABANDONED_AT, (Instant) null)
                    .set(PROC_STATE.BACKFILL_ABANDONED_REASON, (String) null)
                    .set(PROC_STATE.BACKFILL_NEXT_AT, now)
                    .set(PROC_STATE.UPDATED_AT, now)
                    .where(PROC_STATE.MSG_ID.eq(any(ids)))
                    .and(abandoned())
                    .returningResult(PROC_STATE.MSG_ID)
                    .fetch(PROC_STATE.MSG_ID));
            reopened.sort(null);
            return List.copyOf(reopened);
        });
    }

    @Override
    public void forgetReconciliations(Collection<Long> msgIds) {
        var ids = distinct(msgIds);
        if (ids.length > 0) {
            StoreOperation.run("forgetting " + ids.length + " reconciliation(s)", () -> dsl
                    .deleteFrom(BACKFILL_RECONCILIATION)
                    .where(BACKFILL_RECONCILIATION.MSG_ID.eq(any(ids)))
                    .execute());
        }
    }

    @Override
    public boolean touchAbandoned(long msgId, Instant at) {
        Objects.requireNonNull(at, "at");
        return StoreOperation.run("settling the abandoned mailbox mark of message " + msgId, () -> dsl
                .update(PROC_STATE)
                .set(PROC_STATE.UPDATED_AT, at)
                .where(PROC_STATE.MSG_ID.eq(msgId))
                .and(abandoned())
                .execute() == 1);
    }

    @Override
    public void recordReconciliation(long msgId, String operator, String note, Instant at) {
        var r = BACKFILL_RECONCILIATION;
        StoreOperation.run("recording the reconciliation of message " + msgId, () -> dsl
                .insertInto(r)
                .set(r.MSG_ID, msgId)
                .set(r.RECONCILED_AT, at)
                .set(r.OPERATOR, operator)
                .set(r.NOTE, fitted(note, NOTE_WIDTH))
                .onConflict(r.MSG_ID).doUpdate()
                .set(r.RECONCILED_AT, at)
                .set(r.OPERATOR, operator)
                .set(r.NOTE, fitted(note, NOTE_WIDTH))
                .execute());
    }

    @Override
    public BackfillBacklog backfillBacklog() {
        var r = BACKFILL_RECONCILIATION;
        return StoreOperation.run("counting the backfill backlog", () -> {
            var row = dsl.select(
                            count().filterWhere(PROC_STATE.BACKFILL_ABANDONED_AT.isNull()),
                            count().filterWhere(PROC_STATE.BACKFILL_ABANDONED_AT.isNotNull()),
                            count().filterWhere(PROC_STATE.BACKFILL_ABANDONED_AT.isNotNull().and(r.MSG_ID.isNull())))
                    .from(PROC_STATE)
                    .leftJoin(r).on(r.MSG_ID.eq(PROC_STATE.MSG_ID))
                    .where(PROC_STATE.STATE.in(TERMINAL))
                    .and(PROC_STATE.STATE.ne(ARCHIVED))
                    .and(PROC_STATE.BACKFILL_AT.isNull())
                    .fetchSingle();
            return new BackfillBacklog(row.value1(), row.value2(), row.value3());
        });
    }

    // --- replay ---

    @Override
    public List<Long> replay(Collection<Long> msgIds, Set<ErrorClass> replayable, Instant now) {
        Objects.requireNonNull(now, "now");
        var ids = distinct(msgIds);
        if (ids.length == 0) {
            return List.of();
        }
        var classes = replayable.stream().map(ErrorClass::name).sorted().toList();
        return StoreOperation.run("replaying " + ids.length + " message(s) of classes " + classes, () -> {
            var replayed = new ArrayList<>(dsl
                    .update(PROC_STATE)
                    .set(PROC_STATE.STATE, ProcStatus.PENDING.name())
                    .set(PROC_STATE.ATTEMPTS, 0)
                    .set(PROC_STATE.NEXT_ATTEMPT_AT, (Instant) null)
                    .set(PROC_STATE.ERROR_CLASS, (String) null)
                    .set(PROC_STATE.LAST_ERROR, (String) null)
                    .set(PROC_STATE.UPDATED_AT, now)
                    .where(PROC_STATE.MSG_ID.eq(any(ids)))
                    .and(PROC_STATE.STATE.in(REPLAYABLE_STATES).and(PROC_STATE.ERROR_CLASS.in(classes))
                            .or(PROC_STATE.STATE.eq(inline(ProcStatus.SKIPPED.name()))
                                    .and(PROC_STATE.LAST_ERROR.eq(MessageReplays.UNKNOWN_FLIGHT))))
                    .returningResult(PROC_STATE.MSG_ID)
                    .fetch(PROC_STATE.MSG_ID));
            replayed.sort(null);
            return List.copyOf(replayed);
        });
    }

    // --- archive ---

    /** Backfill settled: the mark confirmed, or abandoned and reconciled by an operator. */
    private static Condition settled() {
        return PROC_STATE.BACKFILL_AT.isNotNull()
                .or(PROC_STATE.BACKFILL_ABANDONED_AT.isNotNull().and(exists(selectOne()
                        .from(BACKFILL_RECONCILIATION)
                        .where(BACKFILL_RECONCILIATION.MSG_ID.eq(PROC_STATE.MSG_ID)))));
    }

    @Override
    public List<ProcRecord> archiveCandidates(Instant settledBefore, int limit) {
        Objects.requireNonNull(settledBefore, "settledBefore");
        requireLimit(limit);
        return StoreOperation.run("listing archive candidates settled before " + settledBefore, () -> dsl
                .selectFrom(PROC_STATE)
                .where(PROC_STATE.STATE.in(TERMINAL))
                .and(PROC_STATE.STATE.ne(ARCHIVED))
                .and(settled())
                .and(PROC_STATE.UPDATED_AT.lt(settledBefore))
                .orderBy(PROC_STATE.UPDATED_AT.asc(), PROC_STATE.MSG_ID.asc())
                .limit(limit)
                .fetch(PgProcStates::recordOf));
    }

    /** The candidate's row as it was listed: same state and last update (a replay or a reopening changes both). */
    private static Condition asListed(ProcRecord candidate) {
        return PROC_STATE.MSG_ID.eq(candidate.msgId())
                .and(PROC_STATE.STATE.eq(candidate.status().name()))
                .and(PROC_STATE.UPDATED_AT.eq(candidate.updatedAt()));
    }

    @Override
    public boolean copyToHistory(ProcRecord candidate, Instant now) {
        Objects.requireNonNull(now, "now");
        var unchanged = asListed(candidate);
        var r = BACKFILL_RECONCILIATION;
        var h = PROC_STATE_HST;
        return StoreOperation.run("copying the processing record of message " + candidate.msgId() + " to its history",
                () -> dsl.insertInto(h).columns(
                        h.MSG_ID, h.STATE, h.IDENTITY_KEY, h.ATTEMPTS, h.NEXT_ATTEMPT_AT, h.ERROR_CLASS,
                        h.LAST_ERROR, h.RECEIVED_AT, h.ENQUEUED_AT, h.UPDATED_AT, h.BACKFILL_NEXT_AT,
                        h.BACKFILL_AT, h.BACKFILL_ATTEMPTS, h.BACKFILL_ABANDONED_AT, h.BACKFILL_ABANDONED_REASON,
                        h.ARCHIVED_AT, h.RECONCILED_AT, h.RECONCILED_BY, h.RECONCILIATION_NOTE)
                .select(select(
                        PROC_STATE.MSG_ID, PROC_STATE.STATE, PROC_STATE.IDENTITY_KEY, PROC_STATE.ATTEMPTS,
                        PROC_STATE.NEXT_ATTEMPT_AT, PROC_STATE.ERROR_CLASS, PROC_STATE.LAST_ERROR,
                        PROC_STATE.RECEIVED_AT, PROC_STATE.ENQUEUED_AT, PROC_STATE.UPDATED_AT,
                        PROC_STATE.BACKFILL_NEXT_AT, PROC_STATE.BACKFILL_AT, PROC_STATE.BACKFILL_ATTEMPTS,
                        PROC_STATE.BACKFILL_ABANDONED_AT, PROC_STATE.BACKFILL_ABANDONED_REASON,
                        val(now, h.ARCHIVED_AT), r.RECONCILED_AT, r.OPERATOR, r.NOTE)
                        .from(PROC_STATE)
                        .leftJoin(r).on(r.MSG_ID.eq(PROC_STATE.MSG_ID))
                        .where(unchanged)
                        .and(PROC_STATE.STATE.in(TERMINAL))
                        .and(settled()))
                .execute() == 1);
    }

    @Override
    public boolean reduceToShadow(ProcRecord candidate, Instant now) {
        Objects.requireNonNull(now, "now");
        var unchanged = asListed(candidate);
        return StoreOperation.run("reducing the processing record of message " + candidate.msgId() + " to its shadow",
                () -> dsl.update(PROC_STATE)
                        .set(PROC_STATE.STATE, ProcStatus.ARCHIVED.name())
                        .set(PROC_STATE.ATTEMPTS, 0)
                        .set(PROC_STATE.NEXT_ATTEMPT_AT, (Instant) null)
                        .set(PROC_STATE.ERROR_CLASS, (String) null)
                        .set(PROC_STATE.LAST_ERROR, (String) null)
                        .set(PROC_STATE.RECEIVED_AT, (Instant) null)
                        .set(PROC_STATE.UPDATED_AT, now)
                        .set(PROC_STATE.BACKFILL_NEXT_AT, (Instant) null)
                        .set(PROC_STATE.BACKFILL_AT, (Instant) null)
                        .set(PROC_STATE.BACKFILL_ATTEMPTS, 0)
                        .set(PROC_STATE.BACKFILL_ABANDONED_AT, (Instant) null)
                        .set(PROC_STATE.BACKFILL_ABANDONED_REASON, (String) null)
                        .where(unchanged)
                        .execute() == 1);
    }

    @Override
    public int forgetArchivedBefore(Instant cutoff, int limit) {
        Objects.requireNonNull(cutoff, "cutoff");
        requireLimit(limit);
        return StoreOperation.run("forgetting dedup shadows archived before " + cutoff,
                () -> forgettingArchivedBefore(cutoff, limit).execute());
    }

    /**
     * The oldest {@code limit} shadows archived before {@code cutoff}, found through {@code IX_PROC_STATE_SHADOW} and
     * deleted by key: the re-check of the state is written so it cannot use that index too, which a planner with
     * statistics taken before the rows were archived ran as a nested loop re-reading the batch per row (D-42).
     * Package-private for the plan check of the tests.
     */
    Query forgettingArchivedBefore(Instant cutoff, int limit) {
        var doomed = PROC_STATE.as("doomed");
        return dsl.deleteFrom(PROC_STATE)
                .where(PROC_STATE.MSG_ID.in(select(doomed.MSG_ID)
                        .from(doomed)
                        .where(doomed.STATE.eq(ARCHIVED))
                        .and(doomed.UPDATED_AT.lt(cutoff))
                        .orderBy(doomed.UPDATED_AT, doomed.MSG_ID)
                        .limit(limit)))
                .and(KeySet.recheck(PROC_STATE.STATE).eq(ARCHIVED))
                .and(PROC_STATE.UPDATED_AT.lt(cutoff));
    }

    /**
     * Run {@code work} as one unit: a transaction of its own in auto-commit, a savepoint inside the caller's
     * transaction. Rolled back when it throws or when {@code keep} refuses its result (which is still returned).
     */
    private <T> T atomically(Function<DSLContext, T> work, Predicate<T> keep) {
        return dsl.connectionResult(connection -> AtomicUnit.run(connection, inTransaction, KeptSavepoint.RELEASED,
                () -> work.apply(inTransaction ? dsl : dsl.configuration().derive(connection).dsl()), keep));
    }

    private static Long[] distinct(Collection<Long> msgIds) {
        return msgIds.stream().filter(Objects::nonNull).distinct().toArray(Long[]::new);
    }

    private static void requireLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("a batch limit is at least 1, got " + limit);
        }
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
                    .where(PROC_STATE.STATE.ne(ARCHIVED))
                    .fetchSingle();
            return new Backlog(row.value1(), row.value2(), row.value3(), row.value4(), row.value5(), row.value6());
        });
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
