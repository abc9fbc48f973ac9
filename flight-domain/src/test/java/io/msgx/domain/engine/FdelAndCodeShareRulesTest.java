package io.msgx.domain.engine;

import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightList;
import io.msgx.domain.flight.FlightStatus;
import io.msgx.domain.flight.MaflEntry;
import io.msgx.domain.message.FlopSubtype;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.msgx.domain.engine.Messages.dnld;
import static io.msgx.domain.engine.Messages.fdel;
import static io.msgx.domain.engine.Messages.flop;
import static io.msgx.domain.engine.Messages.fltr;
import static io.msgx.domain.engine.Messages.item;
import static io.msgx.domain.engine.Messages.patch;
import static io.msgx.domain.engine.Messages.withList;
import static org.assertj.core.api.Assertions.assertThat;

/** FDEL, the master/code-share cascade, and MAFL propagation (INV-21, INV-22). */
class FdelAndCodeShareRulesTest {

    private final InMemoryFlights flights = new InMemoryFlights();

    /** Master 100 (CA1405) with children 102 (MU3001) and 101 (FM9001); 200 is a plain flight. */
    @BeforeEach
    void a_master_with_two_code_share_children() {
        flights.applied(dnld(
                fltr("100", "11MAR240835", "FLNO", "CA1405"),
                fltr("102", "11MAR240835", "FLNO", "MU3001", "MAID", "100", "CSOP", "MU", "CSFT", "MU3001"),
                fltr("101", "11MAR240835", "FLNO", "FM9001", "MAID", "100"),
                fltr("200", "11MAR240900", "FLNO", "HU7181")));
    }

    @Test
    void a_master_publishes_its_active_children_sorted_by_flid_and_a_child_publishes_none() {
        var applied = flights.applied(flop(FlopSubtype.STND, "100", patch("STND", "12")));
        var master = applied.changes().get(0);
        assertThat(master.mafl()).containsExactly(
                new MaflEntry(FlightId.of("101"), "FM9001"), new MaflEntry(FlightId.of("102"), "MU3001"));

        var child = flights.applied(flop(FlopSubtype.STND, "101", patch("STND", "13")));
        var childChange = child.changes().stream().filter(c -> c.after().flid().value().equals("101")).findFirst().orElseThrow();
        assertThat(childChange.mafl()).isNull();
    }

    @Test
    void the_package_that_creates_children_versions_the_master_once() {
        assertThat(flights.get("100").stateVersion()).isEqualTo(1);
        var store = new InMemoryFlights();
        store.applied(dnld(fltr("100", "11MAR240835", "FLNO", "CA1405")));
        var applied = store.applied(dnld(fltr("101", "11MAR240835", "FLNO", "FM9001", "MAID", "100"),
                fltr("102", "11MAR240835", "FLNO", "MU3001", "MAID", "100")));
        assertThat(store.get("100").stateVersion()).isEqualTo(2);
        var master = applied.changes().stream().filter(c -> c.after().flid().value().equals("100")).findFirst().orElseThrow();
        assertThat(master.event().changed()).containsExactly("MAFL");
        assertThat(master.mafl()).extracting(MaflEntry::flno).containsExactly("FM9001", "MU3001");
    }

    @Test
    void fdel_marks_the_flight_deleted_keeps_its_lists_bumps_the_version_and_emits_a_tombstone() {
        var store = new InMemoryFlights();
        store.applied(dnld(fltr("7", withList(patch("SODT", "11MAR240835"), FlightList.GTDT, item(1, "GATE", "G1")))));
        var applied = store.applied(fdel("7"));

        var change = applied.changes().get(0);
        assertThat(change.after().status()).isEqualTo(FlightStatus.DELETED);
        assertThat(change.after().stateVersion()).isEqualTo(2);
        assertThat(change.after().lists().get(FlightList.GTDT)).hasSize(1);
        assertThat(change.event().change()).isEqualTo(ChangeType.DELETE);
        assertThat(change.event().changed()).containsExactly("STATE");
        assertThat(change.mafl()).isNull();
    }

    @Test
    void a_repeated_fdel_and_an_fdel_of_an_unknown_flight_are_idempotent_successes() {
        flights.applied(fdel("200"));
        var again = flights.accept(fdel("200"));
        var unknown = flights.accept(fdel("9999"));
        assertThat(((Decision.NoChange) again).reason()).isEqualTo(Decision.NoChangeReason.ALREADY_DELETED);
        assertThat(((Decision.NoChange) unknown).reason()).isEqualTo(Decision.NoChangeReason.DELETE_OF_UNKNOWN_FLIGHT);
        assertThat(again).extracting(d -> ((Decision.NoChange) d).reason().noMatch()).isEqualTo(false);
        assertThat(flights.get("200").stateVersion()).isEqualTo(2);
        assertThat(flights.contains("9999")).isFalse();
    }

    @Test
    void deleting_a_child_takes_it_out_of_the_masters_mafl_and_versions_and_notifies_the_master_in_the_same_decision() {
        var applied = flights.applied(fdel("101"));

        assertThat(applied.changes()).extracting(c -> c.after().flid().value()).containsExactly("100", "101");
        var master = applied.changes().get(0);
        assertThat(master.after().stateVersion()).isEqualTo(2);
        assertThat(master.event().change()).isEqualTo(ChangeType.UPSERT);
        assertThat(master.event().changed()).containsExactly("MAFL");
        assertThat(master.mafl()).containsExactly(new MaflEntry(FlightId.of("102"), "MU3001"));
        assertThat(applied.changes().get(1).event().change()).isEqualTo(ChangeType.DELETE);
    }

    @Test
    void deleting_a_master_deletes_its_active_children_in_the_same_decision_each_with_a_tombstone() {
        flights.applied(fdel("102"));
        var applied = flights.applied(fdel("100"));

        assertThat(applied.changes()).extracting(c -> c.after().flid().value()).containsExactly("100", "101");
        assertThat(applied.changes()).allSatisfy(c -> {
            assertThat(c.after().status()).isEqualTo(FlightStatus.DELETED);
            assertThat(c.event().change()).isEqualTo(ChangeType.DELETE);
        });
        assertThat(flights.get("102").stateVersion()).as("an already deleted child is not touched again").isEqualTo(2);
        assertThat(flights.get("200").status()).isEqualTo(FlightStatus.ACTIVE);
    }

    @Test
    void a_cshr_moving_maid_versions_both_the_old_and_the_new_master() {
        var applied = flights.applied(flop(FlopSubtype.CSHR, "101", patch("MAID", "200")));

        assertThat(applied.changes()).extracting(c -> c.after().flid().value()).containsExactly("100", "101", "200");
        var old = applied.changes().get(0);
        var moved = applied.changes().get(2);
        assertThat(old.mafl()).extracting(MaflEntry::flno).containsExactly("MU3001");
        assertThat(moved.mafl()).extracting(MaflEntry::flno).containsExactly("FM9001");
        assertThat(old.event().changed()).containsExactly("MAFL");
        assertThat(moved.after().stateVersion()).isEqualTo(2);
    }

    @Test
    void a_cshr_with_an_empty_maid_ends_the_code_share_and_the_flight_publishes_its_own_mafl() {
        var applied = flights.applied(flop(FlopSubtype.CSHR, "102", patch("MAID", "")));
        var child = applied.changes().stream().filter(c -> c.after().flid().value().equals("102")).findFirst().orElseThrow();
        assertThat(child.after().masterId()).isEmpty();
        assertThat(child.mafl()).isEmpty();
        assertThat(flights.get("100").stateVersion()).isEqualTo(2);
    }

    @Test
    void a_childs_flight_number_change_versions_the_master_because_its_mafl_bytes_change() {
        var applied = flights.applied(dnld(fltr("101", "11MAR240835", "FLNO", "FM9002")));
        assertThat(applied.changes()).extracting(c -> c.after().flid().value()).containsExactly("100", "101");
        assertThat(applied.changes().get(0).mafl()).extracting(MaflEntry::flno).containsExactly("FM9002", "MU3001");
    }

    @Test
    void a_dangling_maid_does_not_block_the_child_and_projects_nowhere() {
        var applied = flights.applied(dnld(fltr("300", "11MAR240835", "FLNO", "ZH1", "MAID", "4040")));
        assertThat(applied.changes()).extracting(c -> c.after().flid().value()).containsExactly("300");
        assertThat(flights.get("300").masterId()).contains(FlightId.of("4040"));
    }

    @Test
    void a_self_reference_is_in_no_mafl() {
        var applied = flights.applied(dnld(fltr("400", "11MAR240835", "FLNO", "ZH2", "MAID", "400")));
        assertThat(applied.changes()).hasSize(1);
        assertThat(applied.changes().get(0).mafl()).as("a non-empty MAID publishes no MAFL").isNull();
        assertThat(flights.get("400").masterId()).isEmpty();
    }

    @Test
    void the_read_plan_names_every_flight_and_master_a_decision_needs() {
        var message = flop(FlopSubtype.CSHR, "101", patch("MAID", "200"));
        var snapshot = flights.readThroughPlan(message);
        var planned = flights.engine().apply(snapshot, message, 99);
        var full = flights.engine().apply(io.msgx.domain.engine.FlightSnapshot.complete(flights.all()), message, 99);
        assertThat(planned).isEqualTo(full);
        assertThat(flights.engine().mastersTouchedBy(message, snapshot))
                .extracting(FlightId::value).containsExactly("100", "101", "200");
        assertThat(List.of(snapshot.find(FlightId.of("102")))).isNotEmpty();
    }
}
