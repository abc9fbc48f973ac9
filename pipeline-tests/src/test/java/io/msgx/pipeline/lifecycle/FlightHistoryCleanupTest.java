package io.msgx.pipeline.lifecycle;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.domain.engine.EngineSettings;
import io.msgx.domain.engine.FlightStateEngine;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxEvent;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.pipeline.testing.SisMessages;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static org.assertj.core.api.Assertions.assertThat;

class FlightHistoryCleanupTest {

    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final H2TestStore store = H2TestStore.fresh();
    private final SettableClock clock = new SettableClock(Instant.parse("2024-03-11T00:00:00Z"));
    private final PipelineHarness pipeline = new PipelineHarness(mailbox, store, clock);
    private final SisMessages sis = new SisMessages();
    private final FlightHistoryCleanup cleanup = new FlightHistoryCleanup(store,
            new FlightStateEngine(EngineSettings.defaults()), OperationDayRule.defaults(),
            FlightHistorySettings.defaults(), clock);

    @Test
    void a_flight_is_kept_while_its_operation_day_is_recent_however_quiet() {
        deliver(sis.schedule(fltr("1", "11MAR240835")));
        clock.tick(Duration.ofDays(2));
        assertThat(cleanup.runOnce().archived()).isZero();
        assertThat(store.allFlights()).hasSize(1);
    }

    @Test
    void an_ended_active_flight_gets_its_tombstone_then_is_archived_and_removed() {
        deliver(sis.schedule(fltr("1", "11MAR240835", "FLNO", "CA1")));
        clock.tick(Duration.ofDays(5));

        var round = cleanup.runOnce();

        assertThat(round).isEqualTo(new FlightHistoryCleanup.Round(1, 1, 0));
        assertThat(store.allFlights()).isEmpty();
        assertThat(store.flightHistoryCount(FlightId.of("1"))).isEqualTo(1);
        var projection = events(OutboxTarget.KAFKA_SCHD).get(0).event();
        assertThat(projection.eventType()).isEqualTo(OutboxEvent.EventType.TOMBSTONE);
        assertThat(projection.stateVersion()).isEqualTo(2);
        assertThat(events(OutboxTarget.KAFKA_MSG)).last().satisfies(e -> assertThat(e.event().payload())
                .contains("\"msgId\":0", "\"type\":\"LIFECYCLE\"", "\"styp\":\"CLEANUP\"", "\"change\":\"DELETE\""));
    }

    @Test
    void a_flight_deleted_by_fdel_gets_no_second_tombstone() {
        deliver(sis.schedule(fltr("1", "11MAR240835")));
        deliver(sis.fdel("1"));
        int eventsBefore = store.allEvents().size();
        clock.tick(Duration.ofDays(5));
        assertThat(cleanup.runOnce()).isEqualTo(new FlightHistoryCleanup.Round(1, 0, 0));
        assertThat(store.allEvents()).hasSize(eventsBefore);
    }

    @Test
    void removing_an_ended_child_versions_and_notifies_its_master_that_stays() {
        deliver(sis.schedule(fltr("100", "11MAR240835", "FLNO", "CA1"), fltr("101", "11MAR240835", "MAID", "100")));
        clock.tick(Duration.ofDays(5));
        deliver(sis.flop(io.msgx.domain.message.FlopSubtype.STND, "100", SisMessages.patch("STND", "1")));

        cleanup.runOnce();

        var master = store.allFlights().stream().filter(f -> f.flid().value().equals("100")).findFirst().orElseThrow();
        assertThat(master.status()).isEqualTo(FlightStatus.ACTIVE);
        assertThat(master.stateVersion()).as("plan, STND, child gone").isEqualTo(3);
        assertThat(events(OutboxTarget.KAFKA_SCHD)).filteredOn(e -> e.event().partitionKey().value().equals("100"))
                .singleElement().satisfies(e -> assertThat(e.event().payload()).contains("\"mafl\":[]"));
    }

    @Test
    void a_failed_archive_deletes_nothing() {
        deliver(sis.schedule(fltr("1", "11MAR240835")));
        deliver(sis.fdel("1"));
        var flight = store.allFlights().get(0);
        store.inLockedTransaction(tx -> {
            tx.flightHistory().archive(flight, "{}", clock.instant());
            return null;
        });
        clock.tick(Duration.ofDays(5));

        assertThat(cleanup.runOnce()).isEqualTo(new FlightHistoryCleanup.Round(0, 0, 1));
        assertThat(store.allFlights()).extracting(FlightState::flid).containsExactly(FlightId.of("1"));
    }

    @Test
    void flights_that_keep_failing_do_not_stop_the_clean_up_of_the_others() {
        var smallBatches = new FlightHistoryCleanup(store, new FlightStateEngine(EngineSettings.defaults()),
                OperationDayRule.defaults(), new FlightHistorySettings(Duration.ofDays(3), Duration.ofHours(24),
                Duration.ofDays(30), 2), clock);
        for (var flid : List.of("1", "2", "3")) {
            deliver(sis.schedule(fltr(flid, "11MAR240835")));
            deliver(sis.fdel(flid));
            clock.tick(Duration.ofMinutes(1)); // 1 and 2 are the oldest, first in every listing
        }
        for (var failing : store.allFlights().stream().filter(f -> !f.flid().value().equals("3")).toList()) {
            store.inLockedTransaction(tx -> {
                tx.flightHistory().archive(failing, "{}", clock.instant()); // its archive will collide
                return null;
            });
        }
        clock.tick(Duration.ofDays(5));

        assertThat(smallBatches.runOnce()).isEqualTo(new FlightHistoryCleanup.Round(0, 0, 2));
        assertThat(smallBatches.runOnce()).as("3 first, then 1 and 2 again")
                .isEqualTo(new FlightHistoryCleanup.Round(1, 0, 2));
        assertThat(store.allFlights()).extracting(f -> f.flid().value()).containsExactlyInAnyOrder("1", "2");
    }

    @Test
    void a_flight_no_schedule_placed_leaves_after_the_unplaced_retention() {
        deliver(sis.adft(fltr("9", SisMessages.patch("FLNO", "ZZ9"))));
        clock.tick(Duration.ofDays(29));
        assertThat(cleanup.runOnce().archived()).isZero();
        clock.tick(Duration.ofDays(2));
        assertThat(cleanup.runOnce().archived()).isEqualTo(1);
    }

    private void deliver(String xml) {
        mailbox.appendInbound(xml, null);
        pipeline.runUntilQuiet();
    }

    private List<OutboxEntry> events(OutboxTarget target) {
        return store.allEvents().stream().filter(e -> e.event().target() == target).toList();
    }
}
