package io.msgx.adapter.pg;

import io.msgx.adapter.jdbc.JdbcBackfillMarks;
import io.msgx.adapter.jdbc.SqlDialect.KeyLookup;
import io.msgx.pipeline.port.BackfillMarks;
import io.msgx.pipeline.store.ProcStatesContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The processing-record contract on PostgreSQL, each test in a fresh schema; and the plan of a mark confirmation when
 * the statistics lag behind.
 */
class PgProcStatesTest extends ProcStatesContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();

    @Test
    void marksAreConfirmedByKeyEvenWhenTheStatisticsSayNoneAreOwed() {
        var probe = database.probe();
        probe.sql().execute("INSERT INTO proc_state (msg_id, state, enqueued_at, updated_at, backfill_at) "
                + "SELECT g, 'SUCCEEDED', now(), now(), now() FROM generate_series(1, 3000) g");
        probe.statisticsTakenNow("proc_state");
        probe.sql().execute("UPDATE proc_state SET backfill_at = NULL, backfill_next_at = now()"); // a digested backlog

        var ids = LongStream.rangeClosed(1, 500).boxed().toList();
        var keys = PgDialect.POSTGRESQL.oneOf("p.MSG_ID", KeyLookup.BY_INDEX, ids).get(0);
        var confirmation = ((JdbcBackfillMarks) store().backfillMarks()).confirmingMarks(keys.sql());
        var at = clock.instant();

        // by key, or a scan hashed against the keys once; not a walk of every owed row per key
        assertThat(probe.plan(confirmation, at, at, keys)).doesNotContainIgnoringCase("ix_proc_state_backfill");
        assertThat(probe.execute(confirmation, at, at, keys)).isEqualTo(500);
    }

    @Test
    void archivedShadowsAreForgottenByKeyEvenWhenTheStatisticsSayNoneAreArchived() {
        var probe = database.probe();
        probe.sql().execute("INSERT INTO proc_state (msg_id, state, enqueued_at, updated_at) "
                + "SELECT g, 'SUCCEEDED', now(), now() FROM generate_series(1, 3000) g");
        probe.statisticsTakenNow("proc_state");
        probe.sql().execute("UPDATE proc_state SET state = 'ARCHIVED', updated_at = ?::timestamptz",
                clock.instant().minus(Duration.ofDays(30)).atOffset(ZoneOffset.UTC).toString());

        var cutoff = clock.instant();

        assertThat(probe.plan(PgMessageArchive.FORGET_ARCHIVED, cutoff, 1_000, cutoff))
                .as("IX_PROC_STATE_SHADOW finds the batch, and only the batch")
                .containsOnlyOnce("ix_proc_state_shadow");
        assertThat(probe.execute(PgMessageArchive.FORGET_ARCHIVED, cutoff, 1_000, cutoff)).isEqualTo(1_000);
    }

    @Test
    void theOperatorColumnIsAsWideAsThePortSays() {
        assertThat(io.msgx.adapter.pg.jooq.Tables.BACKFILL_RECONCILIATION.OPERATOR.getDataType().length())
                .isEqualTo(BackfillMarks.MAX_OPERATOR_LENGTH);
    }
}
