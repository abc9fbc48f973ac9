package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.ListItem;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightPatch;
import io.msgx.domain.message.FlopSubtype;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import static io.msgx.domain.engine.Messages.dnld;
import static io.msgx.domain.engine.Messages.fdel;
import static io.msgx.domain.engine.Messages.flop;
import static io.msgx.domain.engine.Messages.fltr;
import static io.msgx.domain.engine.Messages.item;
import static io.msgx.domain.engine.Messages.patch;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every FLOP subtype has its rule tested (INV-20): the parameterized tests run once per subtype, so each
 * subtype is its own test case in the report.
 */
class FlopRulesTest {

    private final InMemoryFlights flights = new InMemoryFlights();

    /** A flight carrying a value in every field and an item in every list, so any stray change would show. */
    @BeforeEach
    void a_fully_populated_flight() {
        var patch = FlightPatch.empty();
        for (var field : FlightField.values()) {
            if (field != FlightField.MAID) {
                patch = patch.with(field, FieldChange.of(field == FlightField.SODT ? "11MAR240835" : "old-" + field));
            }
        }
        for (var list : FlightList.values()) {
            patch = patch.with(list, List.of(oldItem(list)));
        }
        flights.applied(dnld(fltr("1001", patch)));
    }

    @ParameterizedTest(name = "FLOP {0} changes only what it names and keeps the operation day")
    @EnumSource(FlopSubtype.class)
    void each_subtype_changes_only_what_it_names(FlopSubtype subtype) {
        var before = flights.get("1001");
        var body = bodyChangingEverything(subtype);

        var applied = flights.applied(flop(subtype, "1001", body));

        var after = flights.get("1001");
        assertThat(after.stateVersion()).isEqualTo(before.stateVersion() + 1);
        assertThat(after.operationDay()).isEqualTo(before.operationDay());
        var expectedChanged = new ArrayList<String>();
        subtype.list().ifPresent(list -> expectedChanged.add(list.code()));
        subtype.fields().forEach(f -> expectedChanged.add(f.code()));
        expectedChanged.add(FlightList.EXTENSIONS.code()); // the body carries an extension document: it replaces the flight's
        assertThat(applied.changes()).hasSize(1);
        assertThat(applied.changes().get(0).event().changed()).containsExactlyInAnyOrderElementsOf(expectedChanged);
        for (var field : FlightField.values()) {
            if (subtype.fields().contains(field)) {
                assertThat(after.fields().valueOf(field)).as(field.code()).isEqualTo("new-" + field);
            } else {
                assertThat(after.fields().valueOf(field)).as(field.code()).isEqualTo(before.fields().valueOf(field));
            }
        }
        for (var list : FlightList.values()) {
            var expected = subtype.list().filter(list::equals).isPresent() || list == FlightList.EXTENSIONS
                    ? List.of(newItem(list)) : before.lists().get(list);
            assertThat(after.lists().get(list)).as(list.code()).isEqualTo(expected);
        }
    }

    @ParameterizedTest(name = "FLOP {0} with an empty element clears what it names")
    @EnumSource(FlopSubtype.class)
    void an_empty_element_clears(FlopSubtype subtype) {
        var body = subtype.list()
                .map(list -> FlightPatch.empty().with(list, List.of()))
                .orElseGet(() -> {
                    var patch = FlightPatch.empty();
                    for (var field : subtype.fields()) {
                        patch = patch.with(field, FieldChange.Cleared.INSTANCE);
                    }
                    return patch;
                });
        flights.applied(flop(subtype, "1001", body));
        var after = flights.get("1001");
        subtype.list().ifPresent(list -> assertThat(after.lists().get(list)).isEmpty());
        subtype.fields().forEach(field -> assertThat(after.fields().valueOf(field)).isNull());
    }

    @ParameterizedTest(name = "FLOP {0} for an unknown FLID changes nothing and matches nothing")
    @EnumSource(FlopSubtype.class)
    void an_unknown_flight_is_no_match(FlopSubtype subtype) {
        var decision = flights.accept(flop(subtype, "9999", bodyChangingEverything(subtype)));
        assertThat(decision).isInstanceOf(Decision.NoChange.class);
        var noChange = (Decision.NoChange) decision;
        assertThat(noChange.reason()).isEqualTo(Decision.NoChangeReason.OPERATION_ON_UNKNOWN_FLIGHT);
        assertThat(noChange.reason().noMatch()).isTrue();
        assertThat(flights.contains("9999")).as("an operation never creates a flight").isFalse();
    }

    @ParameterizedTest(name = "FLOP {0} for a deleted flight changes nothing and matches nothing")
    @EnumSource(FlopSubtype.class)
    void a_deleted_flight_is_no_match(FlopSubtype subtype) {
        flights.applied(fdel("1001"));
        var before = flights.get("1001");
        var decision = flights.accept(flop(subtype, "1001", bodyChangingEverything(subtype)));
        assertThat(decision).isInstanceOf(Decision.NoChange.class);
        assertThat(((Decision.NoChange) decision).reason()).isEqualTo(Decision.NoChangeReason.OPERATION_ON_DELETED_FLIGHT);
        assertThat(flights.get("1001")).isEqualTo(before);
    }

    @ParameterizedTest(name = "FLOP {0} that carries nothing it names is a protocol error")
    @EnumSource(FlopSubtype.class)
    void a_body_without_the_named_element_is_rejected(FlopSubtype subtype) {
        var decision = flights.accept(flop(subtype, "1001", patch("FLNO", "X1")));
        assertThat(decision).isInstanceOf(Decision.Rejected.class);
        assertThat(((Decision.Rejected) decision).reason()).startsWith("FLOP " + subtype + " for FLID 1001 carries none of");
        assertThat(flights.get("1001").fields().valueOf(FlightField.FLNO)).isEqualTo("old-FLNO");
    }

    @Test
    void a_flop_without_flid_is_a_protocol_error() {
        var decision = flights.accept(flop(FlopSubtype.STND, null, patch("STND", "1")));
        assertThat(decision).isEqualTo(new Decision.Rejected("FLOP STND has no usable FLID"));
    }

    @Test
    void a_group_subtype_keeps_the_group_members_the_body_does_not_carry() {
        flights.applied(flop(FlopSubtype.HNAG, "1001", patch("PHAG", "SWISSPORT")));
        var after = flights.get("1001");
        assertThat(after.fields().valueOf(FlightField.PHAG)).isEqualTo("SWISSPORT");
        assertThat(after.fields().valueOf(FlightField.FHAG)).isEqualTo("old-FHAG");
        assertThat(after.fields().valueOf(FlightField.MHAG)).isEqualTo("old-MHAG");
    }

    @Test
    void the_same_operation_twice_changes_the_version_once() {
        flights.applied(flop(FlopSubtype.STND, "1001", patch("STND", "77")));
        var again = flights.accept(flop(FlopSubtype.STND, "1001", patch("STND", "77")));
        assertThat(again).isInstanceOf(Decision.NoChange.class);
        assertThat(flights.get("1001").stateVersion()).isEqualTo(2);
    }

    @Test
    void the_subtype_table_covers_every_scalar_and_list_subtype_of_the_contract() {
        var contract = List.of("GTDT", "CKDT", "CLDT", "PSDT", "CHDT", "DELY", "ABTM", "CHOT", "ROUT", "ERUT", "SRVT",
                "VIPF", "STND", "ACFT", "RENO", "TRML", "RUNW", "MAXP", "FLTY", "FLIN", "REMC", "FTSS", "EXSS", "BOTM",
                "LACL", "FINT", "EOBT", "TOBT", "COBT", "CTOT", "IEST", "APPT", "EGSR", "EGST", "NEAT", "NAAT", "PEDT",
                "PADT", "ESTT", "ACTT", "CNCL", "FDIV", "FRET", "FLAB", "TAOP", "HNAG", "CSHR",
                // sis-format v2 §5
                "PSHT", "TIPT", "PORT", "VIPP", "VIPR",
                // sis-format v3 §10
                "ALSC", "LBNO", "LBWT", "PAXC");
        assertThat(EnumSet.allOf(FlopSubtype.class)).extracting(Enum::name).containsExactlyInAnyOrderElementsOf(contract);
    }

    private static FlightPatch bodyChangingEverything(FlopSubtype subtype) {
        var patch = FlightPatch.empty();
        for (var field : FlightField.values()) {
            if (field != FlightField.MAID && field != FlightField.SODT) {
                patch = patch.with(field, FieldChange.of("new-" + field));
            }
        }
        if (subtype.fields().contains(FlightField.MAID)) {
            patch = patch.with(FlightField.MAID, FieldChange.of("new-MAID"));
        }
        for (var list : FlightList.values()) {
            patch = patch.with(list, List.of(newItem(list)));
        }
        return patch;
    }

    private static ListItem oldItem(FlightList list) {
        return item(1, list.itemFields().get(0), "old");
    }

    private static ListItem newItem(FlightList list) {
        return item(2, list.itemFields().get(0), "new");
    }
}
