package io.msgx.adapter.oracle;

import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.store.DatabaseArchiveContract;
import io.msgx.pipeline.store.ProcRecord;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Optional;

/** The archive contract of the database stores on Oracle, each test in a fresh schema. */
class OracleArchiveTest extends DatabaseArchiveContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
    private final OracleProbe probe = new OracleProbe(database);

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
        return probe.processingHistoryRow(msgId).map(row -> new ArchivedReconciliation(row.reconciledAt(),
                row.reconciledBy(), row.reconciliationNote(), row.archivedAt()));
    }

    @Override
    protected long countBackfillReconciliations() {
        return probe.count("SELECT COUNT(*) FROM BACKFILL_RECONCILIATION");
    }
}
