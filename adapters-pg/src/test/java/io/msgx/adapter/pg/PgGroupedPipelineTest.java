package io.msgx.adapter.pg;

import io.msgx.pipeline.inbox.InboxSettings;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.pump.ProcessOutcome;
import io.msgx.pipeline.pump.ProcessingSettings;
import io.msgx.pipeline.pump.TickResult;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.testing.jdbc.StatementCountingDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** A whole group (D-34) through the pump on PostgreSQL: what it costs in statements, whatever its size. */
class PgGroupedPipelineTest {

    private static final int GROUP = 100;

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();

    private final SettableClock clock = SettableClock.atExampleDay();

    @Test
    void aGroupOfSchedulesForDistinctFlightsCostsAboutTheStatementsOfOneMessage() {
        var counted = new StatementCountingDataSource(database.dataSource());
        PipelineStore store = PgPipelineStore.create(counted, clock);
        var mailbox = new InMemoryMailbox();
        var sis = new SisMessages();
        for (int n = 1; n <= GROUP; n++) {
            mailbox.appendInbound(sis.schedule(SisMessages.fltr(Integer.toString(5000 + n), "11MAR240835", "STND", "S" + n)),
                    clock.instant());
        }
        var pipeline = new PipelineHarness(mailbox, store, clock, InboxSettings.defaults(),
                ProcessingSettings.defaults().withGroupSize(GROUP));
        pipeline.pollOnce();
        counted.reset();

        var tick = pipeline.tick();

        assertThat(((TickResult.Processed) tick).outcomes()).hasSize(GROUP)
                .allSatisfy(outcome -> assertThat(outcome).isInstanceOf(ProcessOutcome.Ended.class));
        int statements = counted.statements();
        assertThat(store.queue().head()).as("every message ended").isEmpty();
        assertThat(store.inTransaction(tx -> tx.flights().find(java.util.List.of(
                io.msgx.domain.flight.FlightId.of("5042")))).get(0).fields().valueOf(
                io.msgx.domain.flight.FlightField.STND)).isEqualTo("S42");
        // head, watermark, run; identities (<= 3); lock, records, flights (1 + 11), saves (<= 1 + 2 x 11),
        // notifications, projections, endings; the schedule trail: about 50 in all, where one message at a time
        // costs about 40 per message.
        assertThat(statements).isLessThanOrEqualTo(60);

        for (int n = 1; n <= GROUP; n++) {
            mailbox.appendInbound(sis.flop(io.msgx.domain.message.FlopSubtype.STND, Integer.toString(5000 + n),
                    SisMessages.patch("STND", "T" + n)), clock.instant());
        }
        pipeline.pollOnce();
        counted.reset();

        assertThat(((TickResult.Processed) pipeline.tick()).outcomes()).hasSize(GROUP);

        assertThat(counted.statements()).as("a scalar change rewrites no list: no list statement at all")
                .isLessThanOrEqualTo(60 - 2 * 11);
    }
}
