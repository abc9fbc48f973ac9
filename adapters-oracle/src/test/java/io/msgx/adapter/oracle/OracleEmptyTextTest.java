package io.msgx.adapter.oracle;

import io.msgx.domain.flight.FlightId;
import io.msgx.pipeline.port.ScheduleLog;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.store.IdentityBinder;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Oracle stores '' as NULL. Where the pipeline may write an empty text it must read back as '', the adapter maps NULL
 * back; where the domain cannot tell '' from "no text", '' reads back as null; an empty identity key is refused.
 */
class OracleEmptyTextTest {

    @RegisterExtension
    final OracleTestDatabase database = new OracleTestDatabase();
    private final SettableClock clock = SettableClock.atExampleDay();

    @Test
    void anEmptyRawMessageIsKeptAsEmpty() {
        var copies = database.store(clock).rawCopies();
        copies.keep(17, "", clock.instant());

        assertThat(copies.find(17)).contains("");
        assertThat(copies.find(18)).isEmpty();
    }

    @Test
    void anEmptyKindAndOutcomeOfTheScheduleTrailComeBackEmpty() {
        var log = database.store(clock).scheduleLog();
        var entry = new ScheduleLog.Entry(17, "", null, null, 0, 0, "", clock.instant());

        log.append(entry);

        assertThat(log.entriesOf(17)).containsExactly(entry);
    }

    @Test
    void anEmptyPayloadComesBackEmptyAndATombstoneWithout() {
        var store = database.store(clock);
        var empty = new OutboxEvent(OutboxTarget.KAFKA_MSG, FlightId.of("1001"), OutboxEvent.EventType.UPSERT, 1, 17,
                "", clock.instant());
        var tombstone = new OutboxEvent(OutboxTarget.KAFKA_SCHD, FlightId.of("1001"), OutboxEvent.EventType.TOMBSTONE,
                1, 17, null, clock.instant());
        store.inTransaction(tx -> {
            tx.notifications().append(empty);
            return tx.projections().upsertProjection(tombstone);
        });

        assertThat(store.outboxQueries().pending(OutboxTarget.KAFKA_MSG, 10)).singleElement()
                .satisfies(entry -> assertThat(entry.event()).isEqualTo(empty));
        assertThat(store.outboxQueries().pending(OutboxTarget.KAFKA_SCHD, 10)).singleElement()
                .satisfies(entry -> assertThat(entry.event()).isEqualTo(tombstone));
    }

    @Test
    void anEmptyAbandonmentReasonComesBackEmpty() {
        var store = database.store(clock);
        store.queue().insertIfAbsent(17, null, clock.instant());
        store.queue().finish(17, MessageEnd.succeeded("applied"), clock.instant());

        assertThat(store.backfillMarks().backfillAbandoned(17, "", clock.instant())).isTrue();

        assertThat(store.queue().find(17).orElseThrow().backfillAbandonedReason()).isEqualTo("");
        assertThat(store.backfillMarks().abandonedMarks(10)).singleElement()
                .satisfies(mark -> assertThat(mark.record().backfillAbandonedReason()).isEqualTo(""));
    }

    @Test
    void anEmptyReasonOrErrorReadsAsNoText() {
        var queue = database.store(clock).queue();
        queue.insertIfAbsent(17, null, clock.instant());
        queue.recordFailure(17, ErrorClass.INFRA, "", clock.instant(), clock.instant());
        assertThat(queue.find(17).orElseThrow().lastError()).isNull();

        queue.finish(17, MessageEnd.succeeded(""), clock.instant());
        assertThat(queue.find(17).orElseThrow().lastError()).isNull();
    }

    @Test
    void anEmptyIdentityIsRefusedNotBoundAsNone() {
        var store = database.store(clock);
        store.queue().insertIfAbsent(17, null, clock.instant());

        assertThatThrownBy(() -> IdentityBinder.bind(store, 17, "", clock.instant()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty identity");
        assertThat(store.queue().find(17).orElseThrow().identityKey()).isNull();
    }
}
