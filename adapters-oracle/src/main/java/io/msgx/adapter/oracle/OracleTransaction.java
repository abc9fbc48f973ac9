package io.msgx.adapter.oracle;

import io.msgx.adapter.jdbc.JdbcFlightHistory;
import io.msgx.adapter.jdbc.JdbcFlightStore;
import io.msgx.adapter.jdbc.JdbcInboxCursors;
import io.msgx.adapter.jdbc.JdbcProcStates;
import io.msgx.adapter.jdbc.JdbcReferenceData;
import io.msgx.adapter.jdbc.JdbcRequestTrack;
import io.msgx.adapter.jdbc.Sql;
import io.msgx.adapter.jdbc.TransactionConnection;
import io.msgx.pipeline.port.FlightHistory;
import io.msgx.pipeline.port.FlightQueries;
import io.msgx.pipeline.port.FlightStore;
import io.msgx.pipeline.port.InboxCursors;
import io.msgx.pipeline.port.PipelineTransaction;
import io.msgx.pipeline.port.ReferenceData;
import io.msgx.pipeline.port.RequestTrack;
import io.msgx.pipeline.store.TablePorts;

import java.time.Clock;
import java.time.Duration;

/** The repositories of one open transaction, all on its single connection. */
final class OracleTransaction extends TablePorts<JdbcProcStates, OracleOutbox> implements PipelineTransaction {

    /** The name of the one row every flight-state writer locks. */
    static final String PIPELINE = "PIPELINE";

    private final Sql sql;
    private final InboxCursors inboxCursor;
    private final JdbcFlightStore flights;
    private final FlightHistory flightHistory;
    private final ReferenceData referenceData;
    private final RequestTrack requests;
    private volatile boolean holdsLock;

    OracleTransaction(TransactionConnection connection, Clock clock) {
        this(connection, Sql.inTransaction(OracleDialect.ORACLE, connection), clock);
    }

    private OracleTransaction(TransactionConnection connection, Sql sql, Clock clock) {
        super(new JdbcProcStates(sql), new OracleOutbox(sql));
        this.sql = sql;
        this.inboxCursor = new JdbcInboxCursors(sql, clock);
        this.flights = new JdbcFlightStore(sql);
        this.flightHistory = new JdbcFlightHistory(sql, () -> holdsLock, connection::rollbackOnly);
        this.referenceData = new JdbcReferenceData(sql);
        this.requests = new JdbcRequestTrack(sql);
    }

    /** {@code FOR UPDATE} waiting at most {@code lockWait}, rounded up to whole seconds; without a bound when null. */
    static String forUpdate(Duration lockWait) {
        return " FOR UPDATE" + (lockWait == null ? "" : " WAIT " + Math.max(1, (lockWait.toMillis() + 999) / 1000));
    }

    /**
     * Take {@code PIPELINE_LOCK} until the end of the transaction: {@code SELECT ... FOR UPDATE} waits while another
     * transaction holds it, for ever when {@code lockWait} is null, else at most that long ({@code FOR UPDATE WAIT n},
     * whole seconds; ORA-30006 then, which is {@link io.msgx.pipeline.store.StoreUnavailableException}).
     */
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
}
