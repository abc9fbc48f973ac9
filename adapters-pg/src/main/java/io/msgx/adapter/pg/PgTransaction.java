package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.JdbcFlightHistory;
import io.msgx.adapter.jdbc.JdbcFlightStore;
import io.msgx.adapter.jdbc.JdbcInboxCursors;
import io.msgx.adapter.jdbc.JdbcReferenceData;
import io.msgx.adapter.jdbc.JdbcRequestTrack;
import io.msgx.adapter.jdbc.Sql;
import io.msgx.pipeline.port.FlightHistory;
import io.msgx.pipeline.port.FlightQueries;
import io.msgx.pipeline.port.FlightStore;
import io.msgx.pipeline.port.InboxCursors;
import io.msgx.pipeline.port.PipelineTransaction;
import io.msgx.pipeline.port.ReferenceData;
import io.msgx.pipeline.port.RequestTrack;
import io.msgx.pipeline.store.TablePorts;
import org.jooq.DSLContext;

import java.time.Clock;

import static io.msgx.adapter.pg.jooq.Tables.PIPELINE_LOCK;

/** The repositories of one open transaction, all on its single connection. */
final class PgTransaction extends TablePorts<PgProcStates, PgOutbox> implements PipelineTransaction {

    /** The name of the one row every flight-state writer locks. */
    static final String PIPELINE = "PIPELINE";

    private final DSLContext dsl;
    private final InboxCursors inboxCursor;
    private final JdbcFlightStore flights;
    private final FlightHistory flightHistory;
    private final ReferenceData referenceData;
    private final RequestTrack requests;
    private volatile boolean holdsLock;

    PgTransaction(DSLContext dsl, Sql sql, Clock clock) {
        super(new PgProcStates(sql), new PgOutbox(sql, dsl));
        this.dsl = dsl;
        this.inboxCursor = new JdbcInboxCursors(sql, clock);
        this.flights = new JdbcFlightStore(sql);
        // PostgreSQL aborts the transaction of a failed archive itself.
        this.flightHistory = new JdbcFlightHistory(sql, () -> holdsLock, reason -> { });
        this.referenceData = new JdbcReferenceData(sql);
        this.requests = new JdbcRequestTrack(sql);
    }

    /** Take {@code PIPELINE_LOCK} until the end of the transaction (waits while another transaction holds it). */
    void lockPipeline() {
        StoreOperation.run("taking PIPELINE_LOCK", () -> {
            var locked = dsl.select(PIPELINE_LOCK.NAME).from(PIPELINE_LOCK)
                    .where(PIPELINE_LOCK.NAME.eq(PIPELINE))
                    .forUpdate()
                    .fetchOptional();
            if (locked.isEmpty()) {
                throw new IllegalStateException("PIPELINE_LOCK has no row '" + PIPELINE + "': the schema was not "
                        + "created by the Flyway migration, or the row was deleted by hand (re-insert it)");
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
