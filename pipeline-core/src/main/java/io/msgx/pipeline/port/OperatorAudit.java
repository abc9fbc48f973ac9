package io.msgx.pipeline.port;

import io.msgx.pipeline.audit.AuditEntry;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * {@code OPERATOR_AUDIT}: the append-only trail of operator actions (issue 36, D-137). A row is appended in the
 * transaction of the action's own change ({@link PipelineTransaction#operatorAudit()}), so an action that rolled back
 * leaves no row and one that committed cannot lack it; a refused action, which changed nothing, appends its row on its
 * own ({@link PipelineStore#operatorAudit()}). No port updates a row; only the retention deletes old ones
 * ({@link Housekeeping#deleteOperatorAuditBefore}).
 */
public interface OperatorAudit {

    /** Append one row; its ID comes from the store. */
    void append(AuditEntry entry);

    /** The rows {@code filter} selects, newest first (by time, then ID). */
    List<Stored> newestFirst(Filter filter);

    /** A row as stored: its ID and the entry. */
    record Stored(long id, AuditEntry entry) {
        public Stored {
            Objects.requireNonNull(entry, "entry");
        }
    }

    /**
     * Which rows to list: recorded at or after {@code since} (null: any time), by {@code operator} and of
     * {@code action} (each exact, null: any), at most {@code limit}.
     */
    record Filter(Instant since, String operator, String action, int limit) {
        public Filter {
            if (limit < 1) {
                throw new IllegalArgumentException("list at least 1 audit row, got a limit of " + limit);
            }
        }

        /** The newest {@code limit} rows. */
        public static Filter newest(int limit) {
            return new Filter(null, null, null, limit);
        }
    }
}
