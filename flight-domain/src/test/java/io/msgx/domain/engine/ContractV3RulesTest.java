package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightField;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.domain.flight.OperationDayRule;
import io.msgx.domain.message.FieldChange;
import io.msgx.domain.message.FlightBatch;
import io.msgx.domain.message.FlightMessage;
import io.msgx.domain.message.FlopSubtype;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.msgx.domain.engine.Messages.dnld;
import static io.msgx.domain.engine.Messages.fdel;
import static io.msgx.domain.engine.Messages.flop;
import static io.msgx.domain.engine.Messages.fltr;
import static io.msgx.domain.engine.Messages.item;
import static io.msgx.domain.engine.Messages.patch;
import static io.msgx.domain.engine.Messages.withList;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rules sis-format version 3 (§10) adds: several {@code FLOP} bodies in one message, {@code SCHD/DEL}, the door's
 * open and close times kept apart, lists merged by key where a site says so, and the extension document.
 */
class ContractV3RulesTest {

    private final InMemoryFlights flights = new InMemoryFlights();

    /** Flights 1 and 2; master 100 with its code-share child 101. */
    @BeforeEach
    void a_day() {
        flights.applied(dnld(
                fltr("1", "11MAR240835", "FLNO", "CA1405", "STND", "501"),
                fltr("2", "11MAR240900", "FLNO", "MU5101", "STND", "502"),
                fltr("100", "11MAR241000", "FLNO", "HU7181"),
                fltr("101", "11MAR241000", "FLNO", "GS7181", "MAID", "100")));
    }

    private static FlightBatch bodies(FlopSubtype subtype, Object... flidsAndPatches) {
        var parts = new java.util.ArrayList<FlightMessage>();
        for (int i = 0; i < flidsAndPatches.length; i += 2) {
            parts.add(flop(subtype, (String) flidsAndPatches[i], (io.msgx.domain.message.FlightPatch) flidsAndPatches[i + 1]));
        }
        return new FlightBatch(parts);
    }

    @Test
    void several_bodies_change_their_flights_in_one_decision_each_flight_one_version_up() {
        long one = flights.get("1").stateVersion();
        long two = flights.get("2").stateVersion();

        var applied = flights.applied(bodies(FlopSubtype.STND, "1", patch("STND", "601"), "2", patch("STND", "602")));

        assertThat(applied.changes()).extracting(change -> change.after().flid().value()).containsExactly("1", "2");
        assertThat(applied.passedOver()).isEmpty();
        assertThat(flights.get("1").fields().valueOf(FlightField.STND)).isEqualTo("601");
        assertThat(flights.get("2").fields().valueOf(FlightField.STND)).isEqualTo("602");
        assertThat(flights.get("1").stateVersion()).isEqualTo(one + 1);
        assertThat(flights.get("2").stateVersion()).isEqualTo(two + 1);
    }

    @Test
    void a_body_for_an_unknown_flight_does_not_stop_the_others_and_is_named() {
        var applied = flights.applied(bodies(FlopSubtype.STND, "1", patch("STND", "601"), "9", patch("STND", "609"),
                "2", patch("STND", "602")));

        assertThat(applied.changes()).hasSize(2);
        assertThat(applied.passedOver()).containsExactly(
                new Decision.PassedOver("9", Decision.NoChangeReason.OPERATION_ON_UNKNOWN_FLIGHT));
        assertThat(flights.contains("9")).isFalse();
    }

    @Test
    void when_no_body_finds_its_flight_the_message_waits_for_them_as_a_single_one_does() {
        var decision = flights.accept(bodies(FlopSubtype.STND, "8", patch("STND", "608"), "9", patch("STND", "609")));

        assertThat(decision).isInstanceOf(Decision.NoChange.class);
        assertThat(((Decision.NoChange) decision).reason()).isEqualTo(Decision.NoChangeReason.OPERATION_ON_UNKNOWN_FLIGHT);
        assertThat(((Decision.NoChange) decision).detail()).contains("8", "9");
    }

    @Test
    void a_body_that_breaks_the_protocol_refuses_the_whole_message() {
        var before = flights.get("1");

        var decision = flights.accept(bodies(FlopSubtype.STND, "1", patch("STND", "601"), "2", patch("ACFT", "321")));

        assertThat(decision).isInstanceOf(Decision.Rejected.class);
        assertThat(((Decision.Rejected) decision).reason()).startsWith("body #2 of 2: FLOP STND for FLID 2 carries none of");
        assertThat(flights.get("1")).isEqualTo(before);
    }

    @Test
    void a_later_body_sees_what_an_earlier_one_did_to_the_same_flight() {
        long version = flights.get("1").stateVersion();

        flights.applied(bodies(FlopSubtype.STND, "1", patch("STND", "601"), "1", patch("STND", "611")));

        assertThat(flights.get("1").fields().valueOf(FlightField.STND)).isEqualTo("611");
        assertThat(flights.get("1").stateVersion()).isEqualTo(version + 1);
    }

    @Test
    void schd_del_deletes_every_flight_it_lists_as_fdel_does_and_names_the_unknown_ones() {
        var applied = flights.applied(new FlightBatch(List.of(fdel("100"), fdel("777"), fdel("2")), 3));

        assertThat(applied.changes()).extracting(change -> change.after().flid().value())
                .containsExactlyInAnyOrder("100", "101", "2");
        assertThat(applied.changes()).allSatisfy(change -> {
            assertThat(change.after().status()).isEqualTo(FlightStatus.DELETED);
            assertThat(change.event().change()).isEqualTo(ChangeType.DELETE);
        });
        assertThat(applied.passedOver()).containsExactly(
                new Decision.PassedOver("777", Decision.NoChangeReason.DELETE_OF_UNKNOWN_FLIGHT));
        assertThat(flights.get("1").isActive()).isTrue();
    }

    @Test
    void schd_del_whose_record_count_is_wrong_deletes_nothing() {
        var decision = flights.accept(new FlightBatch(List.of(fdel("1"), fdel("2")), 3));

        assertThat(decision).isEqualTo(new Decision.Rejected("SCHD DEL declares RECS=3 but lists 2 flight(s)"));
        assertThat(flights.get("1").isActive()).isTrue();
    }

    @Test
    void the_door_close_leaves_the_door_open_time_as_it_was() {
        flights.applied(flop(FlopSubtype.PORT, "1", patch("PORT_POTM", "11MAR240810", "PORT_POID", "O",
                "PORT_OPEN", "11MAR240810")));

        var applied = flights.applied(flop(FlopSubtype.PORT, "1", patch("PORT_POTM", "11MAR240828", "PORT_POID", "C",
                "PORT_CLOSE", "11MAR240828")));

        var flight = flights.get("1").fields();
        assertThat(flight.valueOf(FlightField.PORT_OPEN)).isEqualTo("11MAR240810");
        assertThat(flight.valueOf(FlightField.PORT_CLOSE)).isEqualTo("11MAR240828");
        assertThat(flight.valueOf(FlightField.PORT_POID)).isEqualTo("C");
        assertThat(applied.changes().get(0).event().changed())
                .containsExactlyInAnyOrder("PORT_POTM", "PORT_POID", "PORT_CLOSE");
    }

    @Test
    void a_list_replaces_by_default_and_merges_by_its_key_where_the_site_says_so() {
        var merging = new InMemoryFlights(new FlightStateEngine(new EngineSettings(OperationDayRule.defaults(),
                AbsentFieldPolicy.KEEP, Map.of(FlightList.DELY, ListMode.MERGE_BY_KEY, FlightList.ERUT, ListMode.MERGE_BY_KEY))));
        for (var store : List.of(flights, merging)) {
            store.applied(dnld(fltr("5", "11MAR241200", "FLNO", "ZH9001")));
            store.applied(flop(FlopSubtype.DELY, "5", withList(patch(), FlightList.DELY,
                    item(null, "CODE", "93", "DESC", "late inbound"), item(null, "CODE", "81", "DESC", "crew"))));
            store.applied(flop(FlopSubtype.DELY, "5", withList(patch(), FlightList.DELY,
                    item(null, "CODE", "93", "DESC", "late inbound, again"), item(null, "CODE", "11", "DESC", "pax"))));
            store.applied(flop(FlopSubtype.ERUT, "5", withList(patch(), FlightList.ERUT,
                    item(1, "APCD", "PEK"), item(2, "APCD", "CTU"))));
            store.applied(flop(FlopSubtype.ERUT, "5", withList(patch(), FlightList.ERUT, item(2, "APCD", "CKG"))));
        }

        assertThat(flights.get("5").lists().get(FlightList.DELY)).containsExactly(
                item(null, "CODE", "93", "DESC", "late inbound, again"), item(null, "CODE", "11", "DESC", "pax"));
        assertThat(flights.get("5").lists().get(FlightList.ERUT)).containsExactly(item(2, "APCD", "CKG"));
        assertThat(merging.get("5").lists().get(FlightList.DELY)).containsExactly(
                item(null, "CODE", "93", "DESC", "late inbound, again"), item(null, "CODE", "81", "DESC", "crew"),
                item(null, "CODE", "11", "DESC", "pax"));
        assertThat(merging.get("5").lists().get(FlightList.ERUT)).containsExactly(item(1, "APCD", "PEK"), item(2, "APCD", "CKG"));
        var engine = new FlightStateEngine(new EngineSettings(OperationDayRule.defaults(), AbsentFieldPolicy.KEEP,
                Map.of(FlightList.DELY, ListMode.MERGE_BY_KEY)));
        assertThat(engine.listModeOf(flop(FlopSubtype.DELY, "5", patch()))).contains("DELY merged by CODE");
        assertThat(engine.listModeOf(flop(FlopSubtype.GTDT, "5", patch()))).contains("GTDT replaced");
        assertThat(engine.listModeOf(flop(FlopSubtype.STND, "5", patch()))).isEmpty();
    }

    @Test
    void a_list_without_a_key_cannot_be_merged() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new EngineSettings(OperationDayRule.defaults(),
                        AbsentFieldPolicy.KEEP, Map.of(FlightList.GTDT, ListMode.MERGE_BY_KEY)))
                .hasMessageContaining("GTDT has no key to merge by");
    }

    @Test
    void a_body_carrying_something_unknown_replaces_the_extension_document_and_one_carrying_nothing_unknown_keeps_it() {
        var first = item(null, "PATH", "XTRA", "VALUE", "a");
        flights.applied(flop(FlopSubtype.STND, "1", withList(patch("STND", "601"), FlightList.EXTENSIONS, first)));
        assertThat(flights.get("1").lists().get(FlightList.EXTENSIONS)).containsExactly(first);

        flights.applied(flop(FlopSubtype.STND, "1", patch("STND", "602")));
        assertThat(flights.get("1").lists().get(FlightList.EXTENSIONS)).containsExactly(first);

        var second = item(null, "PATH", "XNEW/@CODE", "VALUE", "b");
        var applied = flights.applied(flop(FlopSubtype.ACFT, "1", withList(patch("ACFT", "333"), FlightList.EXTENSIONS, second)));
        assertThat(flights.get("1").lists().get(FlightList.EXTENSIONS)).containsExactly(second);
        assertThat(applied.changes().get(0).event().changed()).containsExactlyInAnyOrder("ACFT", "EXTENSIONS");
    }

    @Test
    void a_value_a_record_carries_empty_clears_the_new_fields_as_any_other() {
        flights.applied(dnld(fltr("6", "11MAR241300", "ALSC", "HUB", "LBNO", "12", "LBWT", "180.5", "PAXC", "150")));
        assertThat(flights.get("6").fields().valueOf(FlightField.LBWT)).isEqualTo("180.5");

        flights.applied(flop(FlopSubtype.PAXC, "6", patch().with(FlightField.PAXC, FieldChange.Cleared.INSTANCE)));

        assertThat(flights.get("6").fields().valueOf(FlightField.PAXC)).isNull();
        assertThat(flights.get("6").fields().valueOf(FlightField.ALSC)).isEqualTo("HUB");
    }
}
