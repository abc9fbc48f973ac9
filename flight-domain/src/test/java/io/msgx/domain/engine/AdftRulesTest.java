package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.OperationDay;
import io.msgx.domain.message.ScheduleKind;
import io.msgx.domain.message.ScheduleMessage;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.List;

import static io.msgx.domain.engine.Messages.adft;
import static io.msgx.domain.engine.Messages.dnld;
import static io.msgx.domain.engine.Messages.fltr;
import static io.msgx.domain.engine.Messages.item;
import static io.msgx.domain.engine.Messages.patch;
import static io.msgx.domain.engine.Messages.withList;
import static org.assertj.core.api.Assertions.assertThat;

class AdftRulesTest {

    private final InMemoryFlights flights = new InMemoryFlights();

    @Test
    void a_new_flight_takes_its_operation_day_from_a_parsable_SODT() {
        flights.applied(adft(fltr("2001", "13MAR241200", "FLNO", "HU7181")));
        assertThat(flights.get("2001").operationDay()).isEqualTo(OperationDay.of(LocalDate.of(2024, 3, 13)));
        assertThat(flights.get("2001").stateVersion()).isEqualTo(1);
    }

    @Test
    void an_unparsable_or_missing_SODT_leaves_the_operation_day_null_and_is_no_error() {
        flights.applied(adft(fltr("2001", "soon", "FLNO", "HU7181")));
        flights.applied(adft(fltr("2002", patch("FLNO", "HU7182"))));
        assertThat(flights.get("2001").operationDay()).isNull();
        assertThat(flights.get("2001").fields().valueOf(FlightField.SODT)).isEqualTo("soon");
        assertThat(flights.get("2002").operationDay()).isNull();
    }

    @Test
    void set_only_an_empty_element_or_empty_list_clears_nothing() {
        flights.applied(dnld(fltr("2001", withList(patch("SODT", "13MAR241200", "STND", "12"), FlightList.GTDT,
                item(1, "GATE", "G1")))));
        var decision = flights.accept(adft(fltr("2001", withList(patch("STND", ""), FlightList.GTDT))));

        assertThat(decision).isInstanceOf(Decision.NoChange.class);
        assertThat(flights.get("2001").fields().valueOf(FlightField.STND)).isEqualTo("12");
        assertThat(flights.get("2001").lists().get(FlightList.GTDT)).hasSize(1);
    }

    @Test
    void carried_values_set_and_absent_ones_are_kept() {
        flights.applied(dnld(fltr("2001", "13MAR241200", "STND", "12", "RUNW", "02L")));
        flights.applied(adft(fltr("2001", patch("STND", "14"))));
        assertThat(flights.get("2001").fields().valueOf(FlightField.STND)).isEqualTo("14");
        assertThat(flights.get("2001").fields().valueOf(FlightField.RUNW)).isEqualTo("02L");
        assertThat(flights.get("2001").stateVersion()).isEqualTo(2);
    }

    @Test
    void a_later_parsable_SODT_places_a_flight_that_had_no_operation_day() {
        flights.applied(adft(fltr("2001", patch("FLNO", "HU7181"))));
        flights.applied(adft(fltr("2001", "13MAR241200")));
        assertThat(flights.get("2001").operationDay()).isEqualTo(OperationDay.of(LocalDate.of(2024, 3, 13)));
    }

    @Test
    void an_SODT_on_another_operation_day_is_a_protocol_error_and_changes_nothing() {
        flights.applied(adft(fltr("2001", "13MAR241200")));
        var decision = flights.accept(adft(fltr("2001", "14MAR241200", "STND", "1")));
        assertThat(decision).isInstanceOf(Decision.Rejected.class);
        assertThat(((Decision.Rejected) decision).reason()).contains("INV-12");
        assertThat(flights.get("2001").fields().valueOf(FlightField.STND)).isNull();
    }

    @Test
    void a_record_needs_a_flid_and_a_declared_count_must_match() {
        assertThat(flights.accept(adft(fltr("  ", patch("STND", "1"))))).isInstanceOf(Decision.Rejected.class);
        var miscounted = new ScheduleMessage(ScheduleKind.ADFT, 2, List.of(fltr("1", patch("STND", "1"))));
        assertThat(flights.accept(miscounted)).isInstanceOf(Decision.Rejected.class);
        var undeclared = new ScheduleMessage(ScheduleKind.ADFT, null, List.of(fltr("1", patch("STND", "1"))));
        assertThat(flights.accept(undeclared)).isInstanceOf(Decision.Applied.class);
    }
}
