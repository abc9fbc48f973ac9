package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.StoreDefectException;
import io.msgx.pipeline.audit.Actor;
import io.msgx.pipeline.audit.AuditAction;
import io.msgx.pipeline.audit.AuditEntry;
import io.msgx.pipeline.audit.AuditResult;
import io.msgx.pipeline.port.OperatorAudit;
import io.msgx.pipeline.store.OperatorAuditContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The operator audit contract on PostgreSQL, each test in a fresh schema, plus what only PostgreSQL enforces (D-139):
 * no UPDATE and no TRUNCATE of {@code OPERATOR_AUDIT}, whoever asks; DELETE stays for the retention.
 */
class PgOperatorAuditTest extends OperatorAuditContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();

    private void oneRow() {
        store().operatorAudit().append(new AuditEntry(clock.instant(), Actor.cli("ops", "cli@host (os user ops)"),
                AuditAction.EVENTS_PURGE, "events 7", AuditResult.done("7", null)));
    }

    @Test
    void theDatabaseRefusesToUpdateAnAuditRow() {
        oneRow();

        assertThatThrownBy(() -> database.probe().execute("UPDATE OPERATOR_AUDIT SET OPERATOR = 'someone-else'"))
                .isInstanceOf(StoreDefectException.class).hasMessageContaining("OPERATOR_AUDIT is append-only")
                .hasMessageContaining("UPDATE refused");
        assertThatThrownBy(() -> database.probe()
                .execute("UPDATE OPERATOR_AUDIT SET OUTCOME = 'REFUSED', DETAIL = 'never done'"))
                .hasMessageContaining("append-only");

        assertThat(store().operatorAudit().newestFirst(OperatorAudit.Filter.newest(10))).singleElement()
                .satisfies(row -> {
                    assertThat(row.entry().actor().name()).isEqualTo("ops");
                    assertThat(row.entry().result().outcome().name()).isEqualTo("DONE");
                });
    }

    @Test
    void theDatabaseRefusesToTruncateTheTrailButTheRetentionMayDelete() {
        oneRow();

        assertThatThrownBy(() -> database.probe().execute("TRUNCATE OPERATOR_AUDIT"))
                .hasMessageContaining("TRUNCATE refused");
        assertThat(store().operatorAudit().newestFirst(OperatorAudit.Filter.newest(10))).hasSize(1);

        assertThat(store().housekeeping().deleteOperatorAuditBefore(clock.instant().plusSeconds(1), 10)).isEqualTo(1);
        assertThat(store().operatorAudit().newestFirst(OperatorAudit.Filter.newest(10))).isEmpty();
    }
}
