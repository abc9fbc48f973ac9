package io.msgx.runner;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.runner.embed.MsgExchange;
import io.msgx.runner.metrics.MicrometerPipelineMetrics;
import io.msgx.runner.metrics.PipelineGauges;
import io.msgx.testing.Slow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.SQLException;

import static io.msgx.adapter.mysql.TestMailboxDatabase.insertInbound;
import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.runner.BuiltRunner.await;

/**
 * An instance that loses its lease (another instance took it over) and takes it again runs a new pipeline; the meters an
 * operator watches must follow that pipeline, not stay with the one that stopped.
 */
@Slow
class MetersAcrossLeaseLossTest {

    @RegisterExtension
    final RealServices services = new RealServices();

    private final SisMessages sis = new SisMessages();

    @Test
    void after_the_lease_is_lost_and_taken_again_the_gauges_follow_the_new_pipeline() throws Exception {
        var keys = services.runnerKeys();
        keys.put("msgx.pipeline.poll-interval", "200ms");
        keys.put("msgx.jobs.standby-poll", "200ms");
        keys.put("msgx.lease.duration", "3s");
        keys.put("msgx.lease.renew-interval", "1s");
        keys.put("msgx.pipeline.max-commit-delay", "1h");
        var registry = new SimpleMeterRegistry();
        try (var exchange = MsgExchange.builder().config(keys).meterRegistry(registry).build()) {
            exchange.migrate();
            exchange.start();
            await("active", exchange::isActive);
            long firstEpoch = leaseEpoch();

            // Another instance takes the lease for a second (as a standby does from a holder that went silent): this
            // one finds it gone at its next renewal, stops its pipeline, and takes the lease again once it expires.
            services.countInPostgres("with taken as (update leader_lease set epoch = epoch + 1, holder = 'intruder',"
                    + " expires_at = current_timestamp + interval '1 second' where name = 'LEADER' returning 1)"
                    + " select count(*) from taken");
            await("the lease taken again at a new epoch", () -> leaseEpoch() == firstEpoch + 2 && exchange.isActive());

            services.deliver("<SIS><not closed"); // DEAD (MALFORMED), counted by the new pipeline's gauges job
            await("the new pipeline's dead messages on the gauge",
                    () -> registry.get(PipelineGauges.DEAD).gauge().value() >= 1);

            try (var aodb = services.aodbConnection()) {
                aodb.setAutoCommit(false);
                insertInbound(aodb, sis.schedule(fltr("1", "11MAR240835"))); // an ID held open: a hole
                services.deliver(sis.schedule(fltr("2", "11MAR240900")));
                await("the new pipeline's watermark lag on the gauge",
                        () -> registry.get(MicrometerPipelineMetrics.WATERMARK_LAG).gauge().value() >= 1);
                aodb.rollback();
            }
        }
    }

    /** The epoch of this store's lease. */
    private long leaseEpoch() {
        try {
            return services.countInPostgres("select epoch from leader_lease where name = 'LEADER'");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
