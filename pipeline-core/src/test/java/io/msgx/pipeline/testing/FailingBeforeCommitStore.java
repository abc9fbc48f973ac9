package io.msgx.pipeline.testing;

import io.msgx.pipeline.store.FlightHistory;
import io.msgx.pipeline.store.FlightStore;
import io.msgx.pipeline.store.Housekeeping;
import io.msgx.pipeline.store.InboxCursors;
import io.msgx.pipeline.store.Outbox;
import io.msgx.pipeline.store.PipelineStore;
import io.msgx.pipeline.store.PipelineTransaction;
import io.msgx.pipeline.store.ProcStates;
import io.msgx.pipeline.store.RawMessageCopies;
import io.msgx.pipeline.store.ReferenceData;
import io.msgx.pipeline.store.RequestTrack;
import io.msgx.pipeline.store.ScheduleLog;
import io.msgx.pipeline.store.StoreConflictException;
import io.msgx.pipeline.store.StoreUnavailableException;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Wraps a store so that the next N locked transactions fail at their very end: the work has written the
 * flights, the outbox and the terminal state, and the transaction throws instead of committing — standing for
 * a crash between the flight write and the commit. Nothing of such a transaction may survive. Or
 * ({@link #loseNextCommits}) commit them and fail as if the connection was lost during the commit; or
 * ({@link #rollBackNextAsDeadlockVictims}) roll them back as the database does the victim of a deadlock.
 */
public final class FailingBeforeCommitStore implements PipelineStore {

    private final PipelineStore delegate;
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private final AtomicInteger lostCommitsLeft = new AtomicInteger();
    private boolean asDeadlockVictims;

    public FailingBeforeCommitStore(PipelineStore delegate) {
        this.delegate = delegate;
    }

    /** Fail the next {@code count} locked transactions. */
    public void failNext(int count) {
        failuresLeft.set(count);
        asDeadlockVictims = false;
    }

    /** Roll back the next {@code count} locked transactions with {@link StoreConflictException}, as deadlock victims. */
    public void rollBackNextAsDeadlockVictims(int count) {
        failuresLeft.set(count);
        asDeadlockVictims = true;
    }

    @Override
    public <T> T inTransaction(TransactionWork<T> work) {
        return delegate.inTransaction(work);
    }

    /**
     * Let the next {@code count} locked transactions commit and then fail as a connection lost during the commit
     * does: the caller cannot tell whether anything was written, and it was.
     */
    public void loseNextCommits(int count) {
        lostCommitsLeft.set(count);
    }

    @Override
    public <T> T inLockedTransaction(TransactionWork<T> work) {
        if (lostCommitsLeft.get() > 0) {
            lostCommitsLeft.decrementAndGet();
            delegate.inLockedTransaction(work);
            throw new StoreUnavailableException("injected: the connection was lost while committing a locked "
                    + "transaction (it committed)", null);
        }
        if (failuresLeft.get() <= 0) {
            return delegate.inLockedTransaction(work);
        }
        failuresLeft.decrementAndGet();
        return delegate.inLockedTransaction(tx -> {
            var wrote = new boolean[1];
            var result = work.run(new PipelineTransaction() {
                @Override
                public ProcStates procStates() {
                    return tx.procStates();
                }

                @Override
                public InboxCursors inboxCursor() {
                    return tx.inboxCursor();
                }

                @Override
                public FlightStore flights() {
                    wrote[0] = true;
                    return tx.flights();
                }

                @Override
                public Outbox outbox() {
                    return tx.outbox();
                }

                @Override
                public FlightHistory flightHistory() {
                    return tx.flightHistory();
                }

                @Override
                public ReferenceData referenceData() {
                    wrote[0] = true;
                    return tx.referenceData();
                }

                @Override
                public RequestTrack requests() {
                    return tx.requests();
                }
            });
            if (asDeadlockVictims) {
                throw new StoreConflictException("injected: rolled back as the victim of a deadlock (flights touched: "
                        + wrote[0] + ")", null);
            }
            throw new IllegalStateException("injected failure before commit (flights touched: " + wrote[0] + ")");
        });
    }

    @Override
    public ProcStates procStates() {
        return delegate.procStates();
    }

    @Override
    public InboxCursors inboxCursor() {
        return delegate.inboxCursor();
    }

    @Override
    public Outbox outbox() {
        return delegate.outbox();
    }

    @Override
    public Housekeeping housekeeping() {
        return delegate.housekeeping();
    }

    @Override
    public RawMessageCopies rawCopies() {
        return delegate.rawCopies();
    }

    @Override
    public ScheduleLog scheduleLog() {
        return delegate.scheduleLog();
    }

    @Override
    public ReferenceData referenceData() {
        return delegate.referenceData();
    }

    @Override
    public RequestTrack requests() {
        return delegate.requests();
    }
}
