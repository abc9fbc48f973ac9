package io.msgx.adapter.pg;

import io.msgx.pipeline.store.HousekeepingContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The housekeeping contract on PostgreSQL, each test in a fresh schema, plus the schema's rule on closed requests. */
class PgHousekeepingTest extends HousekeepingContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();

    @Test
    void aClosedRequestWithoutCloseTimeIsRefused() {
        assertThatThrownBy(() -> database.probe().insertRequest("EXPIRED", null))
                .hasMessageContaining("ck_req_track_closed_at");
    }
}
