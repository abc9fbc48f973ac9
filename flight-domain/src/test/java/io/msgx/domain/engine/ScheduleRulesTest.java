package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.domain.flight.OperationDay;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.ScheduleKind;
import io.msgx.domain.message.ScheduleMessage;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.time.LocalTime;
import java.util.List;

import static io.msgx.domain.engine.Messages.dnld;
import static io.msgx.domain.engine.Messages.fdel;
import static io.msgx.domain.engine.Messages.fltr;
import static io.msgx.domain.engine.Messages.item;
import static io.msgx.domain.engine.Messages.patch;
import static io.msgx.domain.engine.Messages.withList;
import static org.assertj.core.api.Assertions.assertThat;

class ScheduleRulesTest {

    private final InMemoryFlights flights = new InMemoryFlights();

    @Test
    void a_package_creates_each_flight_at_version_one_on_the_operation_day_of_its_SODT() {
        var applied = flights.applied(dnld(
                fltr("1001", "11MAR240835", "FLNO", "CA1405", "STND", "504"),
                fltr("1002", "12MAR242350", "FLNO", "MU5101")));

        assertThat(applied.changes()).extracting(c -> c.after().flid().value()).containsExactly("1001", "1002");
        var first = flights.get("1001");
        assertThat(first.stateVersion()).isEqualTo(1);
        assertThat(first.status()).isEqualTo(FlightStatus.ACTIVE);
        assertThat(first.operationDay()).isEqualTo(OperationDay.of(LocalDate.of(2024, 3, 11)));
        assertThat(first.fields().valueOf(FlightField.STND)).isEqualTo("504");
        assertThat(first.lastMsgId()).isEqualTo(1);
        assertThat(flights.get("1002").operationDay()).isEqualTo(OperationDay.of(LocalDate.of(2024, 3, 12)));
        var event = applied.changes().get(0).event();
        assertThat(event.change()).isEqualTo(ChangeType.UPSERT);
        assertThat(event.stateVersion()).isEqualTo(1);
        assertThat(event.changed()).contains("FLNO", "SODT", "STND", "STATE", "OPERATION_DAY");
    }

    @Test
    void the_day_cutover_puts_an_early_morning_flight_on_the_previous_operation_day() {
        var rule = new OperationDayRule(OperationDayRule.DEFAULT_ZONE, LocalTime.of(4, 0));
        var engine = new FlightStateEngine(new EngineSettings(rule, AbsentFieldPolicy.KEEP));
        var store = new InMemoryFlights(engine);
        store.applied(dnld(fltr("7", "12MAR240230"), fltr("8", "12MAR240400")));
        assertThat(store.get("7").operationDay().date()).isEqualTo(LocalDate.of(2024, 3, 11));
        assertThat(store.get("8").operationDay().date()).isEqualTo(LocalDate.of(2024, 3, 12));
    }

    @Test
    void absent_fields_are_kept_and_an_explicit_empty_element_clears() {
        flights.applied(dnld(fltr("1001", "11MAR240835", "STND", "504", "RUNW", "02L")));
        flights.applied(dnld(fltr("1001", "11MAR240835", "RUNW", "")));

        var flight = flights.get("1001");
        assertThat(flight.fields().valueOf(FlightField.STND)).as("absent: kept").isEqualTo("504");
        assertThat(flight.fields().valueOf(FlightField.RUNW)).as("empty element: cleared").isNull();
        assertThat(flight.stateVersion()).isEqualTo(2);
    }

    @Test
    void the_SIS_policy_clears_schedule_fields_and_lists_the_record_does_not_carry_but_keeps_operation_only_fields() {
        var engine = new FlightStateEngine(new EngineSettings(OperationDayRule.defaults(), AbsentFieldPolicy.CLEAR));
        var store = new InMemoryFlights(engine);
        store.applied(dnld(fltr("1001", withList(patch("SODT", "11MAR240835", "STND", "504"),
                FlightList.GTDT, item(1, "GATE", "G28")))));
        store.applied(Messages.flop(io.msgx.domain.message.FlopSubtype.EOBT, "1001", patch("EOBT", "11MAR240820")));

        store.applied(dnld(fltr("1001", "11MAR240835", "FLNO", "CA1405")));

        var flight = store.get("1001");
        assertThat(flight.fields().valueOf(FlightField.STND)).isNull();
        assertThat(flight.lists().get(FlightList.GTDT)).isEmpty();
        assertThat(flight.fields().valueOf(FlightField.EOBT)).as("a FLOP-only field survives").isEqualTo("11MAR240820");
        assertThat(flight.fields().valueOf(FlightField.FLNO)).isEqualTo("CA1405");
    }

    @Test
    void a_package_never_deletes_or_touches_flights_it_does_not_carry() {
        flights.applied(dnld(fltr("1001", "11MAR240835"), fltr("1002", "11MAR240900")));
        var applied = flights.applied(dnld(fltr("1001", "11MAR240835", "STND", "9")));

        assertThat(applied.changes()).extracting(c -> c.after().flid().value()).containsExactly("1001");
        assertThat(flights.get("1002").status()).isEqualTo(FlightStatus.ACTIVE);
        assertThat(flights.get("1002").stateVersion()).isEqualTo(1);
    }

    @Test
    void a_package_identical_to_the_state_changes_no_version() {
        var message = dnld(fltr("1001", "11MAR240835", "STND", "504"));
        flights.applied(message);
        var again = flights.accept(message);
        assertThat(again).isInstanceOf(Decision.NoChange.class);
        assertThat(((Decision.NoChange) again).reason()).isEqualTo(Decision.NoChangeReason.UNCHANGED);
        assertThat(flights.get("1001").stateVersion()).isEqualTo(1);
    }

    @Test
    void a_flid_twice_on_the_same_day_merges_in_order_and_bumps_the_version_once() {
        var applied = flights.applied(dnld(fltr("5", "11MAR240835", "STND", "1"), fltr("5", "11MAR240835", "RUNW", "02L")));
        assertThat(applied.changes()).hasSize(1);
        assertThat(flights.get("5").fields().valueOf(FlightField.STND)).isEqualTo("1");
        assertThat(flights.get("5").fields().valueOf(FlightField.RUNW)).isEqualTo("02L");
        assertThat(flights.get("5").stateVersion()).isEqualTo(1);
    }

    @Test
    void a_deleted_flight_carried_by_a_schedule_is_active_again_at_the_next_version() {
        flights.applied(dnld(fltr("1001", "11MAR240835")));
        flights.applied(fdel("1001"));
        var applied = flights.applied(dnld(fltr("1001", "11MAR240835")));
        assertThat(flights.get("1001").status()).isEqualTo(FlightStatus.ACTIVE);
        assertThat(flights.get("1001").stateVersion()).isEqualTo(3);
        assertThat(applied.changes().get(0).event().changed()).containsExactly("STATE");
    }

    @Test
    void lists_keep_order_repeated_codes_and_missing_or_repeated_source_sequences() {
        var gates = withList(patch("SODT", "11MAR240835"), FlightList.GTDT,
                item(1, "GATE", "G28"), item(1, "GATE", "G28"), item(null, "GATE", "G30"));
        var route = withList(withList(gates, FlightList.ROUT, item(1, "APCD", "PEK")), FlightList.ERUT,
                item(1, "APCD", "CTU"));
        flights.applied(dnld(fltr("1001", route)));

        var flight = flights.get("1001");
        assertThat(flight.lists().get(FlightList.GTDT)).extracting(i -> i.get("GATE")).containsExactly("G28", "G28", "G30");
        assertThat(flight.lists().get(FlightList.GTDT)).extracting(i -> i.sourceSeq()).containsExactly(1, 1, null);
        assertThat(flight.lists().get(FlightList.ROUT)).extracting(i -> i.get("APCD")).containsExactly("PEK");
        assertThat(flight.lists().get(FlightList.ERUT)).extracting(i -> i.get("APCD")).containsExactly("CTU");
    }

    @Test
    void RECS_must_be_declared_and_equal_the_record_count() {
        var missing = new ScheduleMessage(ScheduleKind.DNLD, null, List.of(fltr("1", "11MAR240835")));
        var wrong = new ScheduleMessage(ScheduleKind.RESP, 3, List.of(fltr("1", "11MAR240835")));
        assertRejected(missing, "has no RECS");
        assertRejected(wrong, "declares RECS=3 but carries 1 FLTR");
    }

    @Test
    void every_record_needs_a_flid_and_a_parsable_SODT() {
        assertRejected(dnld(fltr("1", "11MAR240835"), fltr(null, "11MAR240835")), "FLTR #2 has no usable FLID");
        assertRejected(dnld(fltr("1", patch("STND", "5"))), "FLTR #1 (FLID 1) has no SODT");
        assertRejected(dnld(fltr("1", "2024-03-11")), "SODT '2024-03-11', not a ddMMMyyHHmm time");
        assertThat(flights.all()).as("nothing of a rejected package is applied").isEmpty();
    }

    @Test
    void a_flid_twice_with_different_operation_days_rejects_the_whole_package() {
        assertRejected(dnld(fltr("9", "11MAR240835"), fltr("1", "11MAR240835"), fltr("1", "12MAR240835")),
                "FLID 1 appears twice in the package with operation days 2024-03-11 and 2024-03-12");
        assertThat(flights.all()).isEmpty();
    }

    @Test
    void moving_a_flight_to_another_operation_day_rejects_the_whole_package_and_keeps_every_state() {
        flights.applied(dnld(fltr("1001", "11MAR240835", "STND", "504")));
        var before = flights.all();

        assertRejected(dnld(fltr("1002", "11MAR240900"), fltr("1001", "12MAR240835", "STND", "1")),
                "FLID 1001 belongs to operation day 2024-03-11; the package places it on 2024-03-12");

        assertThat(flights.all()).containsExactlyInAnyOrderElementsOf(before);
        assertThat(flights.contains("1002")).isFalse();
    }

    @Test
    void moving_SODT_within_the_same_operation_day_is_an_ordinary_change() {
        flights.applied(dnld(fltr("1001", "11MAR240835")));
        var applied = flights.applied(dnld(fltr("1001", "11MAR242230")));
        assertThat(applied.changes().get(0).event().changed()).containsExactly("SODT");
    }

    @Test
    void an_empty_package_with_RECS_zero_changes_nothing() {
        var decision = flights.accept(new ScheduleMessage(ScheduleKind.DNLD, 0, List.of()));
        assertThat(decision).isEqualTo(new Decision.NoChange(Decision.NoChangeReason.UNCHANGED,
                "every flight already holds what the message carries"));
    }

    @Test
    void a_record_whose_patch_clears_SODT_is_rejected_because_the_day_cannot_be_derived() {
        var record = fltr("1", patch().with(FlightField.SODT, FieldChange.Cleared.INSTANCE));
        assertRejected(dnld(record), "has no SODT");
        assertThat(FlightId.of(" 42 ").value()).isEqualTo("42");
    }

    private void assertRejected(ScheduleMessage message, String reasonPart) {
        var decision = flights.accept(message);
        assertThat(decision).isInstanceOf(Decision.Rejected.class);
        assertThat(((Decision.Rejected) decision).reason()).contains(reasonPart);
    }
}
