package io.msgx.adapter.pg;

import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.store.DatabaseArchiveContract;
import io.msgx.pipeline.store.ProcRecord;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Optional;

import static io.msgx.adapter.pg.jooq.Tables.BACKFILL_RECONCILIATION;

/** The archive contract of the database stores on PostgreSQL, each test in a fresh schema. */
class PgArchiveTest extends DatabaseArchiveContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();
    private final PgProbe probe = new PgProbe(database);

    @Override
    protected PipelineStore store() {
        return database.store(clock);
    }

    @Override
    protected long countProcessingHistory(long msgId) {
        return probe.countProcessingHistory(msgId);
    }

    @Override
    protected Optional<ProcRecord> processingHistory(long msgId) {
        return probe.processingHistory(msgId);
    }

    @Override
    protected Optional<ArchivedReconciliation> archivedReconciliation(long msgId) {
        return probe.processingHistoryRow(msgId).map(row -> new ArchivedReconciliation(row.getReconciledAt(),
                row.getReconciledBy(), row.getReconciliationNote(), row.getArchivedAt()));
    }

    @Override
    protected long countBackfillReconciliations() {
        return probe.sql().fetchCount(BACKFILL_RECONCILIATION);
    }
}
