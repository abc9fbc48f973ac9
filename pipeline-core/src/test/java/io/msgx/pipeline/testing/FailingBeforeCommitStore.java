package io.msgx.pipeline.testing;

import io.msgx.pipeline.port.BackfillMarks;
import io.msgx.pipeline.port.DeadLetters;
import io.msgx.pipeline.port.FlightHistory;
import io.msgx.pipeline.port.FlightQueries;
import io.msgx.pipeline.port.FlightStore;
import io.msgx.pipeline.port.Housekeeping;
import io.msgx.pipeline.port.IdentityRegister;
import io.msgx.pipeline.port.InboxCursors;
import io.msgx.pipeline.port.MessageArchive;
import io.msgx.pipeline.port.MessageQueries;
import io.msgx.pipeline.port.MessageQueue;
import io.msgx.pipeline.port.MessageReplays;
import io.msgx.pipeline.port.Notifications;
import io.msgx.pipeline.port.OperatorAudit;
import io.msgx.pipeline.port.OutboxCleanup;
import io.msgx.pipeline.port.OutboxQueries;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.port.PipelineTransaction;
import io.msgx.pipeline.port.Projections;
import io.msgx.pipeline.port.RawMessageCopies;
import io.msgx.pipeline.port.ReferenceData;
import io.msgx.pipeline.port.ReferenceNotifications;
import io.msgx.pipeline.port.RequestTrack;
import io.msgx.pipeline.port.ScheduleLog;
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
                public FlightQueries flightQueries() {
                    return tx.flightQueries();
                }

                @Override
                public MessageQueue queue() {
                    return tx.queue();
                }

                @Override
                public IdentityRegister identities() {
                    return tx.identities();
                }

                @Override
                public BackfillMarks backfillMarks() {
                    return tx.backfillMarks();
                }

                @Override
                public MessageReplays replays() {
                    return tx.replays();
                }

                @Override
                public MessageArchive messageArchive() {
                    return tx.messageArchive();
                }

                @Override
                public MessageQueries messageQueries() {
                    return tx.messageQueries();
                }

                @Override
                public Notifications notifications() {
                    return tx.notifications();
                }

                @Override
                public Projections projections() {
                    return tx.projections();
                }

                @Override
                public ReferenceNotifications referenceNotifications() {
                    return tx.referenceNotifications();
                }

                @Override
                public DeadLetters deadLetters() {
                    return tx.deadLetters();
                }

                @Override
                public OutboxCleanup outboxCleanup() {
                    return tx.outboxCleanup();
                }

                @Override
                public OutboxQueries outboxQueries() {
                    return tx.outboxQueries();
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

                @Override
                public OperatorAudit operatorAudit() {
                    return tx.operatorAudit();
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
    public FlightQueries flightQueries() {
        return delegate.flightQueries();
    }

    @Override
    public MessageQueue queue() {
        return delegate.queue();
    }

    @Override
    public IdentityRegister identities() {
        return delegate.identities();
    }

    @Override
    public BackfillMarks backfillMarks() {
        return delegate.backfillMarks();
    }

    @Override
    public MessageReplays replays() {
        return delegate.replays();
    }

    @Override
    public MessageArchive messageArchive() {
        return delegate.messageArchive();
    }

    @Override
    public MessageQueries messageQueries() {
        return delegate.messageQueries();
    }

    @Override
    public Notifications notifications() {
        return delegate.notifications();
    }

    @Override
    public Projections projections() {
        return delegate.projections();
    }

    @Override
    public ReferenceNotifications referenceNotifications() {
        return delegate.referenceNotifications();
    }

    @Override
    public DeadLetters deadLetters() {
        return delegate.deadLetters();
    }

    @Override
    public OutboxCleanup outboxCleanup() {
        return delegate.outboxCleanup();
    }

    @Override
    public OutboxQueries outboxQueries() {
        return delegate.outboxQueries();
    }

    @Override
    public InboxCursors inboxCursor() {
        return delegate.inboxCursor();
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

    @Override
    public OperatorAudit operatorAudit() {
        return delegate.operatorAudit();
    }
}
