package io.msgx.adapter.pg;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.port.IdentityRegister;
import io.msgx.pipeline.port.MessageQueue;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.record.IdentityBinding;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.testing.jdbc.StatementCountingDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.function.LongFunction;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a group of messages (D-34) costs in round trips on PostgreSQL, whatever its size: the run is one query, the
 * identities three statements, the endings, notifications and projections one batch each.
 */
class PgGroupRoundTripsTest {

    private static final int GROUP = 100;

    @RegisterExtension
    final PgTestDatabase database = new PgTestDatabase();

    private final SettableClock clock = SettableClock.atExampleDay();
    private StatementCountingDataSource counted;
    private PipelineStore store;

    @BeforeEach
    void enqueueAGroup() {
        counted = new StatementCountingDataSource(database.dataSource());
        store = PgPipelineStore.create(counted, clock);
        LongStream.rangeClosed(1, GROUP).forEach(id -> store.queue().insertIfAbsent(id, null, clock.instant()));
        counted.reset();
    }

    @Test
    void theWholeRunIsReadInOneQuery() {
        var run = store.queue().pendingRun(Long.MAX_VALUE, GROUP);

        assertThat(run).hasSize(GROUP);
        assertThat(counted.statements()).isEqualTo(1);
    }

    @Test
    void aGroupsIdentitiesAreBoundInThreeStatements() {
        var claims = LongStream.rangeClosed(1, GROUP)
                .mapToObj(id -> new IdentityRegister.IdentityClaim(id, "AODB|FLOP|STND|" + (id % 90))).toList();

        var bindings = store.identities().bindIdentities(claims, clock.instant());

        assertThat(bindings.values()).filteredOn(b -> b instanceof IdentityBinding.HeldBy).hasSize(GROUP - 90);
        assertThat(bindings.get(95L)).isEqualTo(new IdentityBinding.HeldBy(5));
        assertThat(counted.statements()).isLessThanOrEqualTo(3);
    }

    @Test
    void aGroupsEndingsNotificationsAndProjectionsAreOneBatchEach() {
        LongFunction<OutboxEvent> notification = id -> new OutboxEvent(OutboxTarget.KAFKA_MSG, FlightId.of("F" + id),
                OutboxEvent.EventType.UPSERT, 1, id, "{}", clock.instant());
        LongFunction<OutboxEvent> projection = id -> new OutboxEvent(OutboxTarget.KAFKA_SCHD, FlightId.of("F" + id),
                OutboxEvent.EventType.UPSERT, 1, id, "{}", clock.instant());

        int ended = store.inTransaction(tx -> {
            tx.notifications().appendAll(LongStream.rangeClosed(1, GROUP).mapToObj(notification).toList());
            tx.projections().upsertProjections(LongStream.rangeClosed(1, GROUP).mapToObj(projection).toList());
            return tx.queue().finishAll(LongStream.rangeClosed(1, GROUP)
                    .mapToObj(id -> new MessageQueue.Ending(id, MessageEnd.succeeded("applied"))).toList(), clock.instant());
        });

        assertThat(ended).isEqualTo(GROUP);
        assertThat(store.outboxQueries().pending(OutboxTarget.KAFKA_MSG, 1000)).hasSize(GROUP);
        assertThat(store.outboxQueries().pending(OutboxTarget.KAFKA_SCHD, 1000)).hasSize(GROUP);
        assertThat(counted.statements()).as("three batches and the two reads above").isEqualTo(3 + 2);
        assertThat(store.queue().head()).as("every message of the group ended").isEmpty();
    }
}
