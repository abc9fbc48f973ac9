package io.msgx.adapter.oracle;

import io.msgx.pipeline.store.HousekeepingContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** The housekeeping contract on Oracle, each test in a fresh schema, plus the schema's rule on closed requests. */
class OracleHousekeepingTest extends HousekeepingContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();

    @Test
    void aClosedRequestWithoutCloseTimeIsRefused() {
        assertThat(OracleProbe.refusal(() -> database.probe().insertRequest("EXPIRED", null)))
                .containsIgnoringCase("CK_REQ_TRACK_CLOSED_AT");
    }
}
