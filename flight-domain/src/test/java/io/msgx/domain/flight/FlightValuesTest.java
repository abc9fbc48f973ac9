package io.msgx.domain.flight;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FlightValuesTest {

    @Test
    void sis_time_reads_any_month_case_and_rejects_everything_else() {
        assertThat(SisTime.parse("11MAR240835")).contains(LocalDateTime.of(2024, 3, 11, 8, 35));
        assertThat(SisTime.parse("16Nov200535")).contains(LocalDateTime.of(2020, 11, 16, 5, 35));
        assertThat(SisTime.parse("16nov200535")).contains(LocalDateTime.of(2020, 11, 16, 5, 35));
        assertThat(Stream.of("31FEB240835", "11MAR242460", "11XYZ240835", "2024-03-11", "", "11MAR24083"))
                .allSatisfy(text -> assertThat(SisTime.parse(text)).as(text).isEmpty());
        assertThat(SisTime.parse(null)).isEmpty();
        assertThat(SisTime.format(LocalDateTime.of(2020, 11, 16, 5, 35))).isEqualTo("16NOV200535");
    }

    @Test
    void the_operation_day_is_the_sodt_date_unless_the_flight_is_before_the_cutover() {
        var midnight = OperationDayRule.defaults();
        assertThat(midnight.dayOfSodt("12MAR240005")).contains(OperationDay.of(LocalDate.of(2024, 3, 12)));
        var fourAm = new OperationDayRule(OperationDayRule.DEFAULT_ZONE, LocalTime.of(4, 0));
        assertThat(fourAm.dayOfSodt("12MAR240359")).contains(OperationDay.of(LocalDate.of(2024, 3, 11)));
        assertThat(fourAm.dayOfSodt("12MAR240400")).contains(OperationDay.of(LocalDate.of(2024, 3, 12)));
        assertThat(fourAm.dayOfSodt("not a time")).isEmpty();
    }

    @Test
    void the_operation_day_at_an_instant_is_read_in_the_airport_zone() {
        var instant = Instant.parse("2024-03-11T17:30:00Z"); // 01:30 on 12 March in Shanghai
        assertThat(OperationDayRule.defaults().dayAt(instant)).isEqualTo(OperationDay.of(LocalDate.of(2024, 3, 12)));
        var fourAm = new OperationDayRule(OperationDayRule.DEFAULT_ZONE, LocalTime.of(4, 0));
        assertThat(fourAm.dayAt(instant)).isEqualTo(OperationDay.of(LocalDate.of(2024, 3, 11)));
    }

    @Test
    void flight_ids_sort_numerically_then_by_text() {
        var sorted = Stream.of("B7", "100", "20", "9", "A1", "007").map(FlightId::of).sorted().map(FlightId::value).toList();
        assertThat(sorted).containsExactly("9", "20", "100", "007", "A1", "B7");
    }

    @Test
    void a_flight_id_is_trimmed_and_must_be_present_and_short() {
        assertThat(FlightId.of(" 1001 ")).isEqualTo(FlightId.of("1001"));
        assertThatThrownBy(() -> FlightId.of(" ")).hasMessageContaining("blank");
        assertThatThrownBy(() -> FlightId.of("x".repeat(33))).hasMessageContaining("longer than 32");
        assertThat(FlightId.isValid(null)).isFalse();
    }

    @Test
    void list_items_are_equal_by_sequence_and_values_and_drop_empty_values() {
        var a = ListItem.of(1, Map.of("GATE", "G1", "GTYP", ""));
        var b = ListItem.of(1, Map.of("GATE", "G1"));
        assertThat(a).isEqualTo(b);
        assertThat(a.get("GTYP")).isNull();
        assertThat(ListItem.of(2, Map.of("GATE", "G1"))).isNotEqualTo(b);
    }

    @Test
    void mafl_holds_active_children_sorted_by_flid_without_self_reference_or_other_masters_children() {
        var master = FlightId.of("100");
        var flights = List.of(
                flight("100", FlightStatus.ACTIVE, null, "CA1"),
                flight("120", FlightStatus.ACTIVE, "100", "MU2"),
                flight("13", FlightStatus.ACTIVE, "100", "FM3"),
                flight("14", FlightStatus.DELETED, "100", "ZH4"),
                flight("15", FlightStatus.ACTIVE, "999", "HU5"),
                flight("16", FlightStatus.ACTIVE, "16", "HU6"));
        assertThat(MaflProjection.of(master, flights)).containsExactly(
                new MaflEntry(FlightId.of("13"), "FM3"), new MaflEntry(FlightId.of("120"), "MU2"));
    }

    @Test
    void a_flight_with_an_empty_maid_carries_mafl_and_a_child_does_not() {
        assertThat(flight("1", FlightStatus.ACTIVE, null, "X").carriesMafl()).isTrue();
        assertThat(flight("2", FlightStatus.ACTIVE, "1", "X").carriesMafl()).isFalse();
        assertThat(flight("2", FlightStatus.ACTIVE, "1", "X").masterId()).contains(FlightId.of("1"));
    }

    @Test
    void a_state_version_below_one_is_refused() {
        assertThatThrownBy(() -> new FlightState(FlightId.of("1"), FlightStatus.ACTIVE, 0, null, 1,
                FlightFields.empty(), FlightLists.empty())).hasMessageContaining("STATE_VERSION starts at 1");
    }

    private static FlightState flight(String flid, FlightStatus status, String maid, String flno) {
        var fields = FlightFields.empty().with(FlightField.FLNO, flno).with(FlightField.MAID, maid);
        return new FlightState(FlightId.of(flid), status, 1, null, 1, fields, FlightLists.empty());
    }

    @Test
    void a_field_names_the_element_and_the_part_that_carry_it() {
        assertThat(FlightField.carriedBy("STND")).containsExactly(FlightField.STND);
        assertThat(FlightField.carriedBy("FDIV")).containsExactly(FlightField.FDIV, FlightField.FDIV_DDES, FlightField.FDIV_DDIR);
        assertThat(FlightField.carriedBy("FRET")).containsExactly(FlightField.FRET, FlightField.FRET_REID);
        assertThat(FlightField.carriedBy("FLAB")).containsExactly(FlightField.FLAB, FlightField.FLAB_ARES);
        assertThat(FlightField.carriedBy("PORT")).containsExactly(FlightField.PORT_POTM, FlightField.PORT_POID,
                FlightField.PORT_OPEN, FlightField.PORT_CLOSE);
        assertThat(FlightField.PORT_OPEN.carrier()).isEqualTo(FlightField.Carrier.INDICATOR);
        assertThat(FlightField.PORT_OPEN.part()).isNull();
        assertThat(FlightField.repeatable("PORT")).isTrue();
        assertThat(FlightField.repeatable("FDIV")).isFalse();
        assertThat(FlightField.carriedBy("GTDT")).isEmpty();
        assertThat(FlightField.FDIV_DDES.element()).isEqualTo("FDIV");
        assertThat(FlightField.FDIV_DDES.part()).isEqualTo("DDES");
        assertThat(FlightField.FDIV_DDES.carrier()).isEqualTo(FlightField.Carrier.ATTRIBUTE);
        assertThat(FlightField.PORT_POID.carrier()).isEqualTo(FlightField.Carrier.CHILD);
        assertThat(FlightField.STND.part()).isNull();
        assertThat(FlightField.EXSC.inScheduleRecord()).isTrue();
        assertThat(FlightField.EXSR.inScheduleRecord()).isTrue();
    }

    @Test
    void only_dely_carries_item_fields_in_attributes_and_text() {
        assertThat(FlightList.DELY.attributeFields()).containsExactly("CODE", "STRT", "DURA");
        assertThat(FlightList.DELY.textField()).contains("DESC");
        for (var list : FlightList.values()) {
            assertThat(list.itemFields()).as(list.code()).containsAll(list.attributeFields());
            list.textField().ifPresent(text -> assertThat(list.itemFields()).contains(text));
            if (list != FlightList.DELY) {
                assertThat(list.attributeFields()).isEmpty();
                assertThat(list.textField()).isEmpty();
            }
        }
        assertThat(FlightList.TIPT.sequenceAttribute()).isEqualTo("TPNO");
        assertThat(FlightList.PSHT.sequenceAttribute()).isEqualTo("PSHN");
    }
}
