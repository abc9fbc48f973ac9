package io.msgx.adapter.pg;

import io.msgx.pipeline.record.RequestStatus;
import io.msgx.pipeline.store.RequestTrackContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.LocalDate;

import static io.msgx.adapter.pg.jooq.Tables.REQ_TRACK;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The request-tracking contract on PostgreSQL, each test in a fresh schema, plus the schema's own guards. */
class PgRequestTrackTest extends RequestTrackContract {

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();

    private int insertRow(String type, LocalDate day, String status, String seqn) {
        return database.probe().sql().insertInto(REQ_TRACK)
                .set(REQ_TRACK.REQ_TYPE, type)
                .set(REQ_TRACK.COVER_DAY, day)
                .set(REQ_TRACK.SENDER, "RMS")
                .set(REQ_TRACK.STATUS, status)
                .set(REQ_TRACK.REQ_SEQN, seqn)
                .set(REQ_TRACK.CREATED_AT, clock.instant())
                .set(REQ_TRACK.DONE_AT, status.equals("PENDING") || status.equals("SENT") ? null : clock.instant())
                .execute();
    }

    @Test
    void theSchemaRefusesASecondOpenRequestForTheSameKey() {
        var open = schedule(DAY, "RMS");

        assertThatThrownBy(() -> insertRow("RQFD", DAY, "SENT", "direct-1")).hasMessageContaining("ux_req_track_open");
        assertThat(insertRow("RQFD", DAY, "EXPIRED", "direct-2")).isEqualTo(1);
        assertThat(requests().find(open.id()).orElseThrow().status()).isEqualTo(RequestStatus.PENDING);
    }

    @Test
    void theSchemaRefusesASecondOpenRequestWithoutDayForTheSameTypeAndSender() {
        reference("GATE", null);

        assertThatThrownBy(() -> insertRow("GATE", null, "PENDING", "direct-1"))
                .hasMessageContaining("ux_req_track_open_no_day");
        assertThat(insertRow("GATE", DAY, "PENDING", "direct-2")).isEqualTo(1);
    }

    @Test
    void theSchemaRefusesASeqnAnOpenRequestCarriesAndAScheduleRequestWithoutDay() {
        var r = schedule(DAY, "RMS");

        assertThatThrownBy(() -> insertRow("GATE", DAY, "PENDING", r.seqn()))
                .hasMessageContaining("ux_req_track_open_seqn");
        assertThat(insertRow("GATE", DAY, "EXPIRED", r.seqn())).as("a closed request keeps its number").isEqualTo(1);
        assertThatThrownBy(() -> insertRow("RQFD", null, "PENDING", "direct-3"))
                .hasMessageContaining("ck_req_track_schedule_day");
    }
}
