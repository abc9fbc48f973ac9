package io.msgx.adapter.oracle;

import io.msgx.pipeline.record.RequestStatus;
import io.msgx.pipeline.store.RequestTrackContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.LocalDate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request-tracking contract on Oracle, each test in a fresh schema, plus the schema's own guards (the unique
 * index on the virtual column OPEN_KEY stands for PostgreSQL's two partial unique indexes).
 */
class OracleRequestTrackTest extends RequestTrackContract {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();

    private long insertRow(String type, LocalDate day, String status, String seqn) {
        return database.probe().insertRequest(type, day, status, seqn,
                status.equals("PENDING") || status.equals("SENT") ? null : clock.instant());
    }

    @Test
    void theSchemaRefusesASecondOpenRequestForTheSameKey() {
        var open = schedule(DAY, "RMS");

        assertThat(OracleProbe.refusal(() -> insertRow("RQFD", DAY, "SENT", "direct-1")))
                .containsIgnoringCase("UX_REQ_TRACK_OPEN");
        assertThat(insertRow("RQFD", DAY, "EXPIRED", "direct-2")).isPositive();
        assertThat(requests().find(open.id()).orElseThrow().status()).isEqualTo(RequestStatus.PENDING);
    }

    @Test
    void theSchemaRefusesASecondOpenRequestWithoutDayForTheSameTypeAndSender() {
        reference("GATE", null);

        assertThat(OracleProbe.refusal(() -> insertRow("GATE", null, "PENDING", "direct-1")))
                .containsIgnoringCase("UX_REQ_TRACK_OPEN");
        assertThat(insertRow("GATE", DAY, "PENDING", "direct-2")).isPositive();
    }

    @Test
    void theSchemaRefusesASeqnAnOpenRequestCarriesAndAScheduleRequestWithoutDay() {
        var r = schedule(DAY, "RMS");

        assertThat(OracleProbe.refusal(() -> insertRow("GATE", DAY, "PENDING", r.seqn())))
                .containsIgnoringCase("UX_REQ_TRACK_OPEN_SEQN");
        assertThat(insertRow("GATE", DAY, "EXPIRED", r.seqn())).as("a closed request keeps its number").isPositive();
        assertThat(OracleProbe.refusal(() -> insertRow("RQFD", null, "PENDING", "direct-3")))
                .containsIgnoringCase("CK_REQ_TRACK_SCHEDULE_DAY");
    }
}
