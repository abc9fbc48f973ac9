package io.msgx.runner;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightState;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.domain.flight.OperationDay;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.testing.Slow;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.pipeline.testing.SisMessages.item;
import static io.msgx.pipeline.testing.SisMessages.patch;
import static io.msgx.pipeline.testing.SisMessages.withList;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A day of mixed traffic through the real parts: written into MariaDB's {@code CMINMSGS} as the AODB writes
 * it, pumped in mailbox order, ending as flight state, outbox rows and terminal states in PostgreSQL. The same
 * assertions run on the Oracle adapter in {@link DayOfMessagesOnOracleEndToEndTest}, which only supplies the store.
 */
@Slow
class DayOfMessagesEndToEndTest extends EndToEndOnEitherStore {

    private final SettableClock clock = SettableClock.atExampleDay();
    private final SisMessages sis = new SisMessages();

    @Test
    void a_day_of_schedules_operations_deletions_duplicates_ignored_and_broken_messages() throws Exception {
        var store = services.store(clock);
        var pipeline = new PipelineHarness(services.mailbox(), store, clock);

        // Morning: the daily plan. 1001 is a master with two code-share children; 2001 is a plain flight.
        var master = withList(withList(withList(patch("SODT", "11MAR240835", "FLNO", "CA1405", "ALCD", "CA",
                                "STND", "504"),
                        FlightList.GTDT, item(1, "GATE", "G28", "GTYP", "D"), item(1, "GATE", "G28"), item(null, "GATE", "G30")),
                        FlightList.ROUT, item(1, "APCD", "PEK", "SCAT", "11MAR241100")),
                FlightList.ERUT, item(1, "APCD", "CTU", "SCDT", "11MAR240835"));
        long plan = services.deliver(sis.schedule(
                fltr("1001", master),
                fltr("1002", "11MAR240835", "FLNO", "MU3001", "MAID", "1001", "CSOP", "MU", "CSFT", "MU3001"),
                fltr("1003", "11MAR240835", "FLNO", "FM9001", "MAID", "1001", "CSOP", "FM", "CSFT", "FM9001"),
                fltr("2001", "11MAR242350", "FLNO", "HU7181")));
        long gates = services.deliver(sis.flop(FlopSubtype.GTDT, "1001",
                withList(patch(), FlightList.GTDT, item(1, "GATE", "G33"))));
        var standXml = sis.flop(FlopSubtype.STND, "2001", patch("STND", "612"));
        long stand = services.deliver(standXml);
        long eobt = services.deliver(sis.flop(FlopSubtype.EOBT, "1001", patch("EOBT", "11MAR240820")));
        long leaves = services.deliver(sis.flop(FlopSubtype.CSHR, "1003", patch("MAID", "", "CSOP", "", "CSFT", "")));
        long duplicate = services.deliver(standXml);
        long load = services.deliver(sis.other("LDM", "ANY"));
        long broken = services.deliver("<MSG><META><SNDR>AODB</SNDR><TYPE>SCHD");
        long added = services.deliver(sis.adft(fltr("3001", "11MAR241500", "FLNO", "ZH9001", "MAID", "1001")));

        pipeline.runUntilQuiet();

        assertThat(state(store, plan)).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(List.of(gates, stand, eobt, leaves, added)).allSatisfy(id -> assertThat(state(store, id)).isEqualTo(ProcStatus.SUCCEEDED));
        assertThat(record(store, duplicate).lastError()).isEqualTo("duplicate-of:" + stand);
        assertThat(record(store, load).lastError()).isEqualTo("ignored:LDM-*");
        assertThat(record(store, broken).status()).isEqualTo(ProcStatus.DEAD);
        assertThat(record(store, broken).errorClass()).isEqualTo(ErrorClass.MALFORMED);

        var m = flight(store, "1001");
        assertThat(m.operationDay()).isEqualTo(OperationDay.of(LocalDate.of(2024, 3, 11)));
        assertThat(m.fields().valueOf(FlightField.STND)).as("kept: no later message carried it").isEqualTo("504");
        assertThat(m.fields().valueOf(FlightField.EOBT)).isEqualTo("11MAR240820");
        assertThat(m.lists().get(FlightList.GTDT)).extracting(i -> i.get("GATE")).containsExactly("G33");
        assertThat(m.lists().get(FlightList.ROUT)).extracting(i -> i.get("APCD")).containsExactly("PEK");
        assertThat(m.lists().get(FlightList.ERUT)).extracting(i -> i.get("APCD")).containsExactly("CTU");
        assertThat(flight(store, "1003").masterId()).isEmpty();
        assertThat(flight(store, "3001").masterId()).contains(FlightId.of("1001"));
        assertThat(projection(store, "1001")).contains(
                "\"mafl\":[{\"flid\":\"1002\",\"flno\":\"MU3001\"},{\"flid\":\"3001\",\"flno\":\"ZH9001\"}]");
        assertThat(projection(store, "1002")).contains("\"maid\":\"1001\"", "\"csop\":\"MU\"").doesNotContain("mafl");

        // Afternoon: a child is deleted, an operation for an unknown flight, a package that would move a
        // flight to another day, and finally the master is deleted with the child it still has.
        long childGone = services.deliver(sis.fdel("1002"));
        long unknown = services.deliver(sis.flop(FlopSubtype.TAOP, "9999", patch("TAOP", "CA")));
        long moving = services.deliver(sis.schedule(fltr("2001", "12MAR240010", "STND", "1")));
        long masterGone = services.deliver(sis.fdel("1001"));
        clock.tick(Duration.ofHours(6));

        pipeline.runUntilQuiet();

        assertThat(state(store, childGone)).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(record(store, unknown).lastError()).isEqualTo("no-match:unknown-flight");
        assertThat(record(store, moving).errorClass()).isEqualTo(ErrorClass.PROTOCOL);
        assertThat(record(store, moving).lastError()).contains("FLID 2001 belongs to operation day 2024-03-11");
        assertThat(flight(store, "2001").fields().valueOf(FlightField.STND)).as("the rejected package wrote nothing")
                .isEqualTo("612");
        assertThat(state(store, masterGone)).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(flight(store, "1001").status()).isEqualTo(FlightStatus.DELETED);
        assertThat(flight(store, "3001").status()).as("the child still linked is deleted with its master")
                .isEqualTo(FlightStatus.DELETED);
        assertThat(flight(store, "1003").status()).as("a former child is not").isEqualTo(FlightStatus.ACTIVE);
        assertThat(flight(store, "1001").lists().get(FlightList.GTDT)).as("a deletion keeps the lists").hasSize(1);

        // Every terminal row owes its mailbox mark; versions only went up, once per change.
        var records = List.of(plan, gates, stand, eobt, leaves, duplicate, load, broken, added, childGone, unknown,
                moving, masterGone);
        assertThat(records).allSatisfy(id -> assertThat(record(store, id).backfillNextAt()).isNotNull());
        assertThat(flight(store, "1001").stateVersion()).as("plan, gates, eobt, 1003 left, 3001 joined, 1002 deleted, FDEL")
                .isEqualTo(7);
        var versionsOf1001 = store.inTransaction(tx -> tx.outboxQueries().pending(OutboxTarget.KAFKA_MSG, 100)).stream()
                .filter(e -> e.event().partitionKey().value().equals("1001")).map(e -> e.event().stateVersion()).toList();
        assertThat(versionsOf1001).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
        assertThat(services.countInStore("select count(*) from msg_event where target = 'KAFKA:schd' "
                + "and partition_key = '1001' and event_type = 'TOMBSTONE' and payload is null")).isEqualTo(1);
        assertThat(store.scheduleLog().entriesOf(plan)).singleElement()
                .satisfies(e -> assertThat(Map.of("outcome", e.outcome(), "flights", e.flights()))
                        .isEqualTo(Map.of("outcome", "APPLIED", "flights", 4)));
    }

    private static ProcStatus state(PipelineStore store, long id) {
        return record(store, id).status();
    }

    private static ProcRecord record(PipelineStore store, long id) {
        return store.queue().find(id).orElseThrow(() -> new AssertionError("message " + id + " not enqueued"));
    }

    private static FlightState flight(PipelineStore store, String flid) {
        return store.inTransaction(tx -> tx.flights().find(List.of(FlightId.of(flid)))).stream().findFirst()
                .orElseThrow(() -> new AssertionError("no flight " + flid));
    }

    private static String projection(PipelineStore store, String flid) {
        return store.inTransaction(tx -> tx.outboxQueries().pending(OutboxTarget.KAFKA_SCHD, 100)).stream()
                .map(OutboxEntry::event)
                .filter(e -> e.partitionKey().value().equals(flid))
                .findFirst().orElseThrow().payload();
    }
}
