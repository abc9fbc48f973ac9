package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.TransactionConnection;
import io.msgx.pipeline.port.BackfillMarks;
import io.msgx.pipeline.port.DeadLetters;
import io.msgx.pipeline.port.FlightHistory;
import io.msgx.pipeline.port.FlightQueries;
import io.msgx.pipeline.port.FlightStore;
import io.msgx.pipeline.port.IdentityRegister;
import io.msgx.pipeline.port.InboxCursors;
import io.msgx.pipeline.port.MessageArchive;
import io.msgx.pipeline.port.MessageQueries;
import io.msgx.pipeline.port.MessageQueue;
import io.msgx.pipeline.port.MessageReplays;
import io.msgx.pipeline.port.Notifications;
import io.msgx.pipeline.port.OutboxCleanup;
import io.msgx.pipeline.port.OutboxQueries;
import io.msgx.pipeline.port.PipelineTransaction;
import io.msgx.pipeline.port.Projections;
import io.msgx.pipeline.port.ReferenceData;
import io.msgx.pipeline.port.ReferenceNotifications;
import io.msgx.pipeline.port.RequestTrack;

import java.time.Clock;
import java.time.Duration;

/** The repositories of one open transaction, all on its single connection. */
final class OracleTransaction implements PipelineTransaction {

    /** The name of the one row every flight-state writer locks. */
    static final String PIPELINE = "PIPELINE";

    private final Sql sql;
    private final OracleProcStates procStates;
    private final InboxCursors inboxCursor;
    private final OracleFlightStore flights;
    private final OracleOutbox outbox;
    private final FlightHistory flightHistory;
    private final ReferenceData referenceData;
    private final RequestTrack requests;
    private volatile boolean holdsLock;

    OracleTransaction(TransactionConnection connection, Clock clock) {
        this.sql = Sql.inTransaction(connection);
        this.procStates = new OracleProcStates(sql);
        this.inboxCursor = new OracleInboxCursors(sql, clock);
        this.flights = new OracleFlightStore(sql);
        this.outbox = new OracleOutbox(sql);
        this.flightHistory = new OracleFlightHistory(sql, () -> holdsLock, connection::rollbackOnly);
        this.referenceData = new OracleReferenceData(sql);
        this.requests = new OracleRequestTrack(sql);
    }

    /**
     * Take {@code PIPELINE_LOCK} until the end of the transaction: {@code SELECT ... FOR UPDATE} waits while another
     * transaction holds it, for ever when {@code lockWait} is null, else at most that long ({@code FOR UPDATE WAIT n},
     * whole seconds; ORA-30006 then, which is {@link io.msgx.pipeline.store.StoreUnavailableException}).
     */
    /** {@code FOR UPDATE} waiting at most {@code lockWait}, rounded up to whole seconds; without a bound when null. */
    static String forUpdate(Duration lockWait) {
        return " FOR UPDATE" + (lockWait == null ? "" : " WAIT " + Math.max(1, (lockWait.toMillis() + 999) / 1000));
    }

    void lockPipeline(Duration lockWait) {
        sql.run("taking PIPELINE_LOCK", session -> {
            var locked = session.one("SELECT NAME FROM PIPELINE_LOCK WHERE NAME = ?" + forUpdate(lockWait),
                    row -> row.text("NAME"), PIPELINE);
            if (locked.isEmpty()) {
                throw new IllegalStateException("PIPELINE_LOCK has no row '" + PIPELINE + "': the schema was not "
                        + "created by OracleSchema.migrate (V1), or the row was deleted by hand (re-insert it)");
            }
            holdsLock = true;
            return null;
        });
    }

    @Override
    public MessageQueue queue() {
        return procStates;
    }

    @Override
    public IdentityRegister identities() {
        return procStates;
    }

    @Override
    public BackfillMarks backfillMarks() {
        return procStates;
    }

    @Override
    public MessageReplays replays() {
        return procStates;
    }

    @Override
    public MessageArchive messageArchive() {
        return procStates;
    }

    @Override
    public MessageQueries messageQueries() {
        return procStates;
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

    @Override
    public Notifications notifications() {
        return outbox;
    }

    @Override
    public Projections projections() {
        return outbox;
    }

    @Override
    public ReferenceNotifications referenceNotifications() {
        return outbox;
    }

    @Override
    public DeadLetters deadLetters() {
        return outbox;
    }

    @Override
    public OutboxCleanup outboxCleanup() {
        return outbox;
    }

    @Override
    public OutboxQueries outboxQueries() {
        return outbox;
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
}
