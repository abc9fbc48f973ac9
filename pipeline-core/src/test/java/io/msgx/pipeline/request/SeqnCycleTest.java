package io.msgx.pipeline.request;

import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Our request SEQN: bounded, zero-padded, cycling, never one an open request carries (D-111). */
class SeqnCycleTest {

    private final SeqnCycle six = SeqnCycle.defaults();

    @Test
    void the_default_is_six_digits_zero_padded_from_one() {
        assertThat(six.width()).isEqualTo(6);
        assertThat(six.max()).isEqualTo(999_999);
        assertThat(six.next(Optional.empty(), List.of())).isEqualTo("000001");
        assertThat(six.next(Optional.of("000041"), List.of())).isEqualTo("000042");
    }

    @Test
    void after_the_largest_number_the_cycle_starts_again_at_one_skipping_open_requests() {
        assertThat(six.next(Optional.of("999999"), List.of())).isEqualTo("000001");
        assertThat(six.next(Optional.of("999998"), List.of("999999", "000001", "2"))).isEqualTo("000003");
    }

    @Test
    void a_last_seqn_outside_the_cycle_starts_it_at_one() {
        assertThat(six.next(Optional.of("1710144000123"), List.of())).as("a millisecond SEQN of before the cycle")
                .isEqualTo("000001");
        assertThat(six.next(Optional.of("RMS-7"), List.of("000001"))).isEqualTo("000002");
        assertThat(new SeqnCycle(4).next(Optional.of("012345"), List.of())).as("a width since reduced")
                .isEqualTo("0001");
        assertThat(new SeqnCycle(8).next(Optional.of("000042"), List.of())).as("a width since widened")
                .isEqualTo("00000043");
    }

    @Test
    void when_every_number_is_open_it_says_which_key_to_widen() {
        var one = new SeqnCycle(1);
        var open = List.of("1", "2", "3", "4", "5", "6", "7", "8", "9");

        assertThatThrownBy(() -> one.next(Optional.of("4"), open)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("msgx.requests.seqn-width");
    }

    @Test
    void the_width_is_one_to_eighteen_digits() {
        assertThat(new SeqnCycle(18).max()).isEqualTo(999_999_999_999_999_999L);
        assertThatThrownBy(() -> new SeqnCycle(0)).hasMessageContaining("msgx.requests.seqn-width");
        assertThatThrownBy(() -> new SeqnCycle(19)).hasMessageContaining("msgx.requests.seqn-width");
    }

    @Test
    void an_rqsn_echoed_without_its_zeros_is_read_as_our_seqn() {
        assertThat(six.canonical("42")).isEqualTo("000042");
        assertThat(six.canonical("000042")).isEqualTo("000042");
        assertThat(six.canonical("1710144000123")).as("not a number of the cycle: as sent").isEqualTo("1710144000123");
        assertThat(six.canonical("AB12")).isEqualTo("AB12");
        assertThat(six.canonical("0")).isEqualTo("0");
    }

    @Property
    void the_next_seqn_is_never_open_always_in_the_cycle_and_of_the_configured_width(
            @ForAll @IntRange(min = 1, max = 18) int width, @ForAll @LongRange(min = 0, max = 1_100) long lastOffset,
            @ForAll @Size(max = 30) List<@LongRange(min = 0, max = 40) Long> openOffsets) {
        var cycle = new SeqnCycle(width);
        long max = cycle.max();
        // Numbers near the top of the cycle, where it wraps, and near its start.
        var last = Long.toString(Math.max(1, max - lastOffset));
        var open = new ArrayList<String>();
        for (long offset : openOffsets) {
            open.add(cycle.format(1 + (max - 1 - offset % max + max) % max));
            open.add(cycle.format(1 + offset % max));
        }
        Assume.that(new HashSet<>(open).size() < max);

        var next = cycle.next(Optional.of(last), open);

        assertThat(next).hasSize(width).containsOnlyDigits();
        long n = Long.parseLong(next);
        assertThat(n).isBetween(1L, max);
        assertThat(open).doesNotContain(next);
        // The first free number after the last one, going round: nothing between them was free.
        for (long k = Long.parseLong(last) % max + 1; k != n; k = k % max + 1) {
            assertThat(open).as("%d was skipped, so it is open", k).contains(cycle.format(k));
        }
    }

    @Property
    void asking_again_and_again_goes_round_the_whole_cycle_and_never_carries_an_open_number(
            @ForAll @IntRange(min = 1, max = 3) int width, @ForAll @Size(max = 20) Set<@IntRange(min = 1, max = 999) Integer> held) {
        var cycle = new SeqnCycle(width);
        var open = held.stream().filter(h -> h <= cycle.max()).map(cycle::format).toList();
        Assume.that(open.size() < cycle.max());
        var seen = new HashSet<String>();
        Optional<String> last = Optional.empty();

        for (long i = 0; i < 2 * cycle.max(); i++) {
            var next = cycle.next(last, open);
            assertThat(open).doesNotContain(next);
            seen.add(next);
            last = Optional.of(next);
        }

        assertThat(seen).as("every free number, each in its turn").hasSize((int) cycle.max() - open.size());
    }
}
