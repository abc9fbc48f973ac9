package io.msgx.tools.simulator;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Simulated days through the whole pipeline over the in-memory mailbox and the H2 test store: every message ends as its kind says and
 * every scheduled flight ends as the day's expectations say. {@link #run} and {@link #assertEndsAsSimulated} read the
 * outcome through the ports only, so {@link SimulatedDayOnOracleEndToEndTest} runs the same day and the same
 * assertions through the real MariaDB mailbox and the Oracle adapter.
 */
class SimulatedDayEndToEndTest {

    private static final ZoneId AIRPORT = ZoneId.of("Asia/Shanghai");

    @Test
    void a_day_of_100_flights_fed_while_the_pipeline_runs() {
        var day = new AirportDaySimulator().generate(SimulationSettings.of(2024, 100, LocalDate.of(2024, 3, 11)));

        var store = H2TestStore.fresh();
        var outcome = run(day, 250, new InMemoryMailbox(), store, SettableClock.atExampleDay(),
                () -> store.allFlights().stream().map(FlightState::flid).toList());

        assertThat(outcome.records()).hasSize(day.messages().size());
        assertThat(store.referenceData().countsByType()).as("REF_MASTER fills from the day's reference traffic")
                .containsEntry("GLST", 49L).containsEntry("SLST", 100L).containsEntry("ABDG", 40L)
                .containsEntry("CLST", 624L).containsEntry("AIRL", (long) ReferenceTables.AIRLINES.size());
        assertThat(store.referenceData().find("SLST", ReferenceTraffic.TEMPORARY_STAND)).as("opened, then closed").isEmpty();
        assertThat(store.referenceData().find("ABDG", "205").orElseThrow().document().json())
                .as("an airbridge serving two stands").contains("\"STND\":[\"505\",\"506\"]");
        assertThat(store.referenceData().find("GLST", "G17").orElseThrow().document().json()).contains("施工");
        assertThat(day.expectations().deletedFlids()).hasSizeGreaterThan(day.expectations().count(SimulatedMessage.Kind.FDEL));
        assertThat(day.expectations().messagesByKind()).allSatisfy((kind, count) -> assertThat(count).as(kind.name()).isPositive());
        assertEndsAsSimulated(day, outcome);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 7, 25})
    void small_days_end_as_simulated_too(int flights) {
        var day = new AirportDaySimulator().generate(SimulationSettings.of(flights, flights, LocalDate.of(2024, 7, 1)));

        assertEndsAsSimulated(day, inMemory(day, 40));
    }

    record Outcome(MailboxFeeder.Feed feed, Map<Long, ProcRecord> records, Map<String, FlightStatus> flights) {
    }

    private static Outcome inMemory(AirportDay day, int chunk) {
        var store = H2TestStore.fresh();
        return run(day, chunk, new InMemoryMailbox(), store, SettableClock.atExampleDay(),
                () -> store.allFlights().stream().map(FlightState::flid).toList());
    }

    /**
     * Feed {@code day} into {@code mailbox} chunk by chunk while the pipeline runs on {@code store}, then drain; the
     * outcome is read through the ports: every fed message's record, and the state of every flight {@code flids}
     * names (all the flights the store holds). {@code clock} is the store's, ticked as the day goes on.
     */
    static Outcome run(AirportDay day, int chunk, Mailbox mailbox, PipelineStore store, SettableClock clock,
                       Supplier<List<FlightId>> flids) {
        var pipeline = new PipelineHarness(mailbox, store, clock);
        var feed = new MailboxFeeder(mailbox, AIRPORT).open(day);
        while (feed.remaining() > 0) {
            feed.feedNext(chunk);
            pipeline.runUntilQuiet();
            clock.tick(Duration.ofMinutes(5));
        }
        for (int round = 0; round < 20 && open(store) > 0; round++) {
            pipeline.runUntilQuiet();
            clock.tick(Duration.ofMinutes(1));
        }
        var records = store.queue().findAll(feed.fed().stream().map(MailboxFeeder.FedMessage::mailboxId).toList());
        var ids = flids.get();
        var flights = store.inTransaction(tx -> tx.flights().find(ids));
        return new Outcome(feed, records,
                flights.stream().collect(Collectors.toMap(f -> f.flid().value(), FlightState::status)));
    }

    private static long open(PipelineStore store) {
        var backlog = store.messageQueries().backlog();
        return backlog.pending() + backlog.failed();
    }

    static void assertEndsAsSimulated(AirportDay day, Outcome outcome) {
        assertThat(outcome.records()).as("every fed message is enqueued").hasSize(outcome.feed().fed().size());
        assertThat(outcome.records().values()).noneMatch(r -> r.status().isOpen());
        var firstIdOf = new HashMap<String, Long>();
        for (var fed : outcome.feed().fed()) {
            var record = outcome.records().get(fed.mailboxId());
            var message = fed.message();
            var what = message.kind() + " " + message.description() + " → " + record.status() + " " + record.lastError();
            switch (message.kind()) {
                case SCHEDULE, ADFT, FLOP, FDEL, REFERENCE -> assertThat(record.status()).as(what)
                        .isEqualTo(ProcStatus.SUCCEEDED);
                case DUPLICATE -> {
                    assertThat(record.status()).as(what).isEqualTo(ProcStatus.SKIPPED);
                    assertThat(record.lastError()).as(what).isEqualTo("duplicate-of:" + firstIdOf.get(message.xml()));
                }
                case IGNORED -> {
                    assertThat(record.status()).as(what).isEqualTo(ProcStatus.SKIPPED);
                    assertThat(record.lastError()).as(what).startsWith("ignored:");
                }
                case MALFORMED -> {
                    assertThat(record.status()).as(what).isEqualTo(ProcStatus.DEAD);
                    assertThat(record.errorClass()).as(what).isEqualTo(ErrorClass.MALFORMED);
                }
            }
            firstIdOf.putIfAbsent(message.xml(), fed.mailboxId());
        }

        var expectations = day.expectations();
        var flights = outcome.flights();
        assertThat(flights.keySet()).isEqualTo(expectations.scheduledFlids());
        assertThat(expectations.deletedFlids()).isNotEmpty()
                .allSatisfy(flid -> assertThat(flights.get(flid)).as(flid).isEqualTo(FlightStatus.DELETED));
        assertThat(expectations.activeFlids())
                .allSatisfy(flid -> assertThat(flights.get(flid)).as(flid).isEqualTo(FlightStatus.ACTIVE));
    }
}
