package io.msgx.adapter.jdbc;

import io.msgx.pipeline.port.DeadLetters;
import io.msgx.pipeline.port.FlightHistory;
import io.msgx.pipeline.port.FlightQueries;
import io.msgx.pipeline.port.FlightStore;
import io.msgx.pipeline.port.InboxCursors;
import io.msgx.pipeline.port.Notifications;
import io.msgx.pipeline.port.OperatorAudit;
import io.msgx.pipeline.port.OutboxCleanup;
import io.msgx.pipeline.port.OutboxQueries;
import io.msgx.pipeline.port.PipelineTransaction;
import io.msgx.pipeline.port.Projections;
import io.msgx.pipeline.port.ReferenceData;
import io.msgx.pipeline.port.ReferenceNotifications;
import io.msgx.pipeline.port.RequestTrack;
import io.msgx.pipeline.store.ProcStatePorts;
import io.msgx.pipeline.store.TablePorts;

import java.time.Clock;

/**
 * The repositories of one open transaction of a JDBC store, all on its single connection. A locked transaction first
 * takes the {@code PIPELINE_LOCK} row ({@link #lockPipeline}); the flight history's writes refuse to run without it.
 * An archive that finds a flight's version archived already marks the transaction rollback-only, so that nothing it
 * deleted is committed (Oracle keeps a transaction after a failed statement; PostgreSQL aborts it anyway).
 */
public final class JdbcTransaction<
        O extends Notifications & Projections & ReferenceNotifications & DeadLetters & OutboxCleanup & OutboxQueries>
        extends TablePorts<O> implements PipelineTransaction {

    /** The name of the one row every flight-state writer locks. */
    public static final String PIPELINE = "PIPELINE";

    private final StoreJdbc sql;
    private final InboxCursors inboxCursor;
    private final JdbcFlightStore flights;
    private final FlightHistory flightHistory;
    private final ReferenceData referenceData;
    private final RequestTrack requests;
    private final OperatorAudit operatorAudit;
    private volatile boolean holdsLock;

    /** The repositories on {@code sql}, bound to {@code connection}, with the store's own two. */
    public JdbcTransaction(
            TransactionConnection connection, StoreJdbc sql, ProcStatePorts procStates, O outbox, Clock clock) {
        super(procStates, outbox);
        this.sql = sql;
        this.inboxCursor = new JdbcInboxCursors(sql, clock);
        this.flights = new JdbcFlightStore(sql);
        this.flightHistory = new JdbcFlightHistory(sql, () -> holdsLock, connection::rollbackOnly);
        this.referenceData = new JdbcReferenceData(sql);
        this.requests = new JdbcRequestTrack(sql);
        this.operatorAudit = new JdbcOperatorAudit(sql);
    }

    /** Prove, first thing in this transaction, that the instance still holds the leader lease (D-108). */
    public void proveLease(LeaseFence fence) {
        sql.run("proving the leader lease", session -> {
            fence.prove(session);
            return null;
        });
    }

    /**
     * Takes {@code PIPELINE_LOCK} until the end of the transaction: {@code SELECT ... FOR UPDATE}, followed by
     * {@code forUpdateWait} (the database's bound on the wait, empty for none), waits while another transaction holds
     * it.
     */
    public void lockPipeline(String forUpdateWait) {
        sql.run("taking PIPELINE_LOCK", session -> {
            var locked = session.one("SELECT NAME FROM PIPELINE_LOCK WHERE NAME = ? FOR UPDATE" + forUpdateWait,
                    row -> row.text("NAME"), PIPELINE);
            if (locked.isEmpty()) {
                throw new IllegalStateException("PIPELINE_LOCK has no row '" + PIPELINE + "': the schema was not "
                        + "created by the store's migration, or the row was deleted by hand (re-insert it)");
            }
            holdsLock = true;
            return null;
        });
    }

    @Override
    public FlightQueries flightQueries() {
        return flights;
    }

    @Override
    public InboxCursors inboxCursor() {
        return inboxCursor;
    }

    @Override
    public FlightStore flights() {
        return flights;
    }

    /** Flight history cleanup; its writes refuse to run unless this transaction holds {@code PIPELINE_LOCK}. */
    @Override
    public FlightHistory flightHistory() {
        return flightHistory;
    }

    @Override
    public ReferenceData referenceData() {
        return referenceData;
    }

    @Override
    public RequestTrack requests() {
        return requests;
    }

    /** {@code OPERATOR_AUDIT} on this transaction: a row appended here commits or rolls back with the action. */
    @Override
    public OperatorAudit operatorAudit() {
        return operatorAudit;
    }
}
