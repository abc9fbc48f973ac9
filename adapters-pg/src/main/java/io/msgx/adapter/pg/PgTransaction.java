package io.msgx.adapter.pg;

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
import org.jooq.DSLContext;

import java.time.Clock;

import static io.msgx.adapter.pg.jooq.Tables.PIPELINE_LOCK;

/** The repositories of one open transaction, all on its single connection. */
final class PgTransaction implements PipelineTransaction {

    /** The name of the one row every flight-state writer locks. */
    static final String PIPELINE = "PIPELINE";

    private final DSLContext dsl;
    private final PgProcStates procStates;
    private final InboxCursors inboxCursor;
    private final PgFlightStore flights;
    private final PgOutbox outbox;
    private final FlightHistory flightHistory;
    private final ReferenceData referenceData;
    private final RequestTrack requests;
    private volatile boolean holdsLock;

    PgTransaction(DSLContext dsl, Clock clock) {
        this.dsl = dsl;
        this.procStates = new PgProcStates(dsl, true);
        this.inboxCursor = new PgInboxCursors(dsl, clock);
        this.flights = new PgFlightStore(dsl);
        this.outbox = new PgOutbox(dsl);
        this.flightHistory = new PgFlightHistory(dsl, () -> holdsLock);
        this.referenceData = new PgReferenceData(dsl);
        this.requests = new PgRequestTrack(dsl);
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
