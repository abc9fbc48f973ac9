package io.msgx.example.consumer;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.msgx.example.consumer.FlightBoard.Outcome.APPLIED;
import static io.msgx.example.consumer.FlightBoard.Outcome.DROPPED;
import static io.msgx.example.consumer.FlightBoard.Outcome.REMOVED;
import static org.assertj.core.api.Assertions.assertThat;

/** The dedup rules of the board and the change log, one record at a time (the wire's own cases included). */
class DedupRulesTest {

    private final FlightBoard board = new FlightBoard();

    @Test
    void a_state_is_applied_only_when_its_version_is_higher() {
        assertThat(board.applyState("1001", 2, state(2))).isEqualTo(APPLIED);
        assertThat(board.applyState("1001", 2, state(2))).as("a repeat").isEqualTo(DROPPED);
        assertThat(board.applyState("1001", 1, state(1))).as("a late, older state").isEqualTo(DROPPED);
        assertThat(board.applyState("1001", 4, state(4))).as("higher by more than one: still the newest").isEqualTo(APPLIED);
        assertThat(board.versions()).containsExactly(java.util.Map.entry("1001", 4L));
        assertThat(board.dropped()).isEqualTo(2);
    }

    @Test
    void a_tombstone_removes_the_flight_and_its_version_stops_older_states_but_not_a_new_flight() {
        board.applyState("1001", 3, state(3));
        assertThat(board.applyDeletion("1001", 2)).as("an older tombstone").isEqualTo(DROPPED);
        assertThat(board.applyDeletion("1001", 4)).isEqualTo(REMOVED);
        assertThat(board.flights()).isEmpty();
        assertThat(board.versionOf("1001")).hasValue(4);
        assertThat(board.applyState("1001", 3, state(3))).as("a repeat of the last state").isEqualTo(DROPPED);
        assertThat(board.applyDeletion("1001", 4)).as("a repeat of the tombstone").isEqualTo(DROPPED);
        assertThat(board.applyState("1001", 5, state(5))).as("the FLID again, a new flight").isEqualTo(APPLIED);
        assertThat(board.versions()).containsEntry("1001", 5L);
    }

    @Test
    void the_change_log_drops_repeats_and_stale_notifications_and_counts_gaps() {
        var log = new ChangeLog();
        assertThat(log.apply(change(5))).as("the first after the start: nothing to compare with")
                .isEqualTo(ChangeLog.Outcome.APPLIED);
        assertThat(log.apply(change(5))).isEqualTo(ChangeLog.Outcome.DROPPED);
        assertThat(log.apply(change(7))).isEqualTo(ChangeLog.Outcome.APPLIED_AFTER_GAP);
        assertThat(log.apply(change(6))).as("the missed one, late: stale").isEqualTo(ChangeLog.Outcome.DROPPED);
        assertThat(log.apply(change(8))).isEqualTo(ChangeLog.Outcome.APPLIED);
        assertThat(log.last("1001")).hasValueSatisfying(c -> assertThat(c.stateVersion()).isEqualTo(8));
        assertThat(List.of(log.applied(), log.repeatsDropped(), log.gaps())).containsExactly(3L, 2L, 1L);
    }

    private static ChangeLog.Change change(long version) {
        return new ChangeLog.Change("1001", version, "UPSERT", List.of("GTDT"), "AODB");
    }

    private static ObjectNode state(long version) {
        return new ObjectMapper().createObjectNode().put("flid", "1001").put("stateVersion", version);
    }
}
