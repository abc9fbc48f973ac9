package io.msgx.pipeline.audit;

import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.port.PipelineTransaction;

import java.time.Clock;
import java.util.Objects;
import java.util.function.Function;

/**
 * One operator action on its way into the audit trail (D-138): who asks, what and for which items. Its store change
 * and its row go into the same transaction ({@link #run}, or {@link #recordIn} for a service that opens the
 * transaction itself), so a failed action leaves no row and a done one cannot lack it; an action refused before it
 * changed anything is recorded on its own ({@link #refused}). The row's time is read from the injected clock when it is
 * written.
 */
public final class AuditedAction {

    private final PipelineStore store;
    private final Clock clock;
    private final Actor actor;
    private final String action;
    private final String items;

    public AuditedAction(PipelineStore store, Clock clock, Actor actor, AuditAction action, String items) {
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.actor = Objects.requireNonNull(actor, "actor");
        this.action = Objects.requireNonNull(action, "action").code();
        this.items = items;
    }

    public Actor actor() {
        return actor;
    }

    /**
     * Run {@code work} in one transaction and append this action's row, its outcome made by {@code outcome} from the
     * work's result, in that transaction: committed together, or rolled back together (a failing append undoes the
     * work). When the work refuses its arguments ({@link IllegalArgumentException}) the transaction is rolled back, the
     * refusal is recorded ({@link #refused}) and the exception rethrown; any other failure leaves no row.
     */
    public <T> T run(PipelineStore.TransactionWork<T> work, Function<? super T, AuditResult> outcome) {
        Objects.requireNonNull(work, "work");
        Objects.requireNonNull(outcome, "outcome");
        try {
            return store.inTransaction(tx -> {
                T result = work.run(tx);
                recordIn(tx, outcome.apply(result));
                return result;
            });
        } catch (IllegalArgumentException e) {
            refused(e.getMessage());
            throw e;
        }
    }

    /** Append this action's row with {@code result} inside the caller's open transaction {@code tx}. */
    public void recordIn(PipelineTransaction tx, AuditResult result) {
        try {
            tx.operatorAudit().append(entry(result));
        } catch (IllegalArgumentException e) {
            // A row the store refuses is a failed append, not a refused action: it must undo the work, not be recorded.
            throw new RefusedArguments("the audit row of " + action + " was refused: " + e.getMessage(), e);
        }
    }

    /** Record that the action was refused and changed nothing, {@code why} saying why: a row of its own. */
    public void refused(String why) {
        store.operatorAudit().append(entry(AuditResult.refused(items, why)));
    }

    /** The row for {@code result}, at the clock's time now. */
    public AuditEntry entry(AuditResult result) {
        return new AuditEntry(clock.instant(), actor, action, items, result);
    }

    /** A failed append inside {@link #run}: rolls the work back like any failure, and is not taken for a refusal. */
    private static final class RefusedArguments extends IllegalStateException {
        RefusedArguments(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
