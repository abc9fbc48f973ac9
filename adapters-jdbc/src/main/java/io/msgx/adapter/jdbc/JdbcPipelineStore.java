package io.msgx.adapter.jdbc;

import io.msgx.pipeline.port.DeadLetters;
import io.msgx.pipeline.port.FlightQueries;
import io.msgx.pipeline.port.Housekeeping;
import io.msgx.pipeline.port.InboxCursors;
import io.msgx.pipeline.port.Notifications;
import io.msgx.pipeline.port.OperatorAudit;
import io.msgx.pipeline.port.OutboxCleanup;
import io.msgx.pipeline.port.OutboxQueries;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.port.Projections;
import io.msgx.pipeline.port.RawMessageCopies;
import io.msgx.pipeline.port.ReferenceData;
import io.msgx.pipeline.port.ReferenceNotifications;
import io.msgx.pipeline.port.RequestTrack;
import io.msgx.pipeline.port.ScheduleLog;
import io.msgx.pipeline.store.ProcStatePorts;
import io.msgx.pipeline.store.TablePorts;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The pipeline's store on a JDBC database, whatever the database ({@link SqlDialect}).
 *
 * <p>{@link #inTransaction} runs its work on one connection with auto-commit off, commits when the work returns and
 * rolls back when it throws or marked the transaction rollback-only; {@link #inLockedTransaction} first locks the
 * {@code PIPELINE_LOCK} row ({@code SELECT ... FOR UPDATE}), so two locked transactions never overlap. Its ports
 * ({@link io.msgx.pipeline.port.StorePorts}), {@link #housekeeping()}, {@link #rawCopies()} and
 * {@link #scheduleLog()} run each call as its own auto-committed statement; the operations of several statements run
 * as one short transaction of their own ({@link RequestTrack#register}, a batch enqueue, a replay, a reopening),
 * never holding {@code PIPELINE_LOCK}. A lost connection, a timeout or a database going down surfaces as
 * {@link io.msgx.pipeline.store.StoreUnavailableException} naming the operation, a transaction rolled back for
 * another's sake as {@link io.msgx.pipeline.store.StoreConflictException}; any other SQL error is
 * {@link StoreDefectException} (a defect). The data source must hand out auto-commit connections.
 *
 * <p>A store gives its own {@code PROC_STATE} ports and outbox repository (each may keep measured statements of its
 * own),
 * its transactions' repositories ({@link #transaction}), and its lifecycle lock.
 */
public abstract class JdbcPipelineStore<
        O extends Notifications & Projections & ReferenceNotifications & DeadLetters & OutboxCleanup & OutboxQueries>
        extends TablePorts<O> implements PipelineStore {

    /** The auto-commit statements. */
    protected final StoreJdbc sql;
    /** Stamps the audit times that no port method receives ({@code INBOX_CURSOR.UPDATED_AT}). */
    protected final Clock clock;
    private volatile LeaseFence fence = LeaseFence.NONE;
    private final DataSource dataSource;
    private final TransactionRunner transactions;

    protected JdbcPipelineStore(DataSource dataSource, StoreJdbc sql, ProcStatePorts procStates, O outbox, Clock clock) {
        super(procStates, outbox);
        this.sql = Objects.requireNonNull(sql, "sql");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        var dialect = sql.dialect();
        // No connection at all (refused, pool closed or exhausted): unavailable whatever the code says.
        this.transactions = new TransactionRunner(dataSource, dialect.failures()::unavailable, dialect::failure);
    }

    /**
     * The {@code PROC_STATE} ports in the statements both databases read alike, all on {@code sql}; a store with
     * measured statements of its own wires its own ports in their place.
     */
    protected static ProcStatePorts sharedProcStatePorts(StoreJdbc sql) {
        var queue = new JdbcMessageQueue(sql);
        return new ProcStatePorts(queue, new JdbcIdentityRegister(sql, queue), new JdbcBackfillMarks(sql),
                new JdbcMessageReplays(sql), new JdbcMessageArchive(sql), new JdbcMessageQueries(sql));
    }

    /**
     * A connection of its own (for a lock held across other work), unavailable when none can be had; the caller
     * returns it ({@link AtomicUnit#returnToPool}).
     */
    protected Connection openConnection(String kind) {
        try {
            return dataSource.getConnection();
        } catch (SQLException e) {
            throw sql.dialect().failures().unavailable("opening a connection for " + kind, e);
        }
    }

    /** The repositories of the transaction open on {@code connection}. */
    protected abstract JdbcTransaction<O> transaction(TransactionConnection connection);

    /** What follows {@code FOR UPDATE} when a locked transaction takes {@code PIPELINE_LOCK} (a bound on the wait). */
    protected abstract String pipelineLockWait();

    @Override
    public <T> T inTransaction(TransactionWork<T> work) {
        return run(work, false);
    }

    @Override
    public <T> T inLockedTransaction(TransactionWork<T> work) {
        return run(work, true);
    }

    /**
     * From now on every transaction proves first, with {@code fence}, that this instance holds the leader lease
     * (D-108), and so does every write of the auto-committed ports ({@link StoreJdbc#fenceWith}: the dispatcher's
     * confirmations, the lifecycle jobs, the operator actions); {@link LeaseFence#NONE} (the default: the CLI, a store
     * used alone) proves nothing.
     */
    public void fenceWith(LeaseFence fence) {
        this.fence = Objects.requireNonNull(fence, "fence");
        sql.fenceWith(fence);
    }

    /** A leader lease on this store's database (not yet acquired), to be given to {@link #fenceWith} once held. */
    public JdbcEpochLease lease(JdbcEpochLease.Settings settings, java.util.function.LongSupplier nanoTime) {
        return new JdbcEpochLease(dataSource, sql.dialect(), settings, nanoTime);
    }

    private <T> T run(TransactionWork<T> work, boolean locked) {
        Objects.requireNonNull(work, "work");
        var proof = fence;
        return transactions.run(locked ? "a locked transaction" : "a transaction", connection -> {
            var tx = transaction(connection);
            if (proof != LeaseFence.NONE) {
                tx.proveLease(proof);
            }
            if (locked) {
                tx.lockPipeline(pipelineLockWait());
            }
            return work.run(tx);
        });
    }

    @Override
    public FlightQueries flightQueries() {
        return new JdbcFlightStore(sql);
    }

    @Override
    public InboxCursors inboxCursor() {
        return new JdbcInboxCursors(sql, clock);
    }

    @Override
    public Housekeeping housekeeping() {
        return new JdbcHousekeeping(sql);
    }

    @Override
    public RawMessageCopies rawCopies() {
        return new JdbcRawMessageCopies(sql);
    }

    @Override
    public ScheduleLog scheduleLog() {
        return new JdbcScheduleLog(sql);
    }

    /** Reads of {@code REF_MASTER}, each its own statement (a refresh here is not atomic: write in a transaction). */
    @Override
    public ReferenceData referenceData() {
        return new JdbcReferenceData(sql);
    }

    /**
     * {@code REQ_TRACK}, each call its own statement; {@link RequestTrack#register} (expire the old open request,
     * insert the new one) as one short transaction of its own.
     */
    @Override
    public RequestTrack requests() {
        return RequestTrack.autoCommitted(this, new JdbcRequestTrack(sql));
    }

    /** {@code OPERATOR_AUDIT}, each call its own statement: a refused action's row, and the listings. */
    @Override
    public OperatorAudit operatorAudit() {
        return new JdbcOperatorAudit(sql);
    }
}
