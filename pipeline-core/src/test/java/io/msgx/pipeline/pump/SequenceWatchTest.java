package io.msgx.pipeline.pump;

import io.msgx.pipeline.codec.MessageIdentity;
import io.msgx.pipeline.codec.MessageMeta;
import io.msgx.pipeline.port.PipelineMetrics;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** A restarted SEQN is seen; reordering within the window is not (D-86). */
class SequenceWatchTest {

    private final List<String> restarts = new ArrayList<>();
    private final PipelineMetrics metrics = new PipelineMetrics() {
        @Override
        public void sequenceRestarted(String sender) {
            restarts.add(sender);
        }
    };

    @Test
    void a_fall_beyond_the_window_is_a_restart_once_and_the_watch_follows_the_new_sequence() {
        var watch = new SequenceWatch(100, metrics);
        assertThat(watch.observe(1, meta("AODB", "5000"))).isFalse();
        assertThat(watch.observe(2, meta("AODB", "4950"))).as("within the window: reordering").isFalse();
        assertThat(watch.observe(3, meta("OTHER", "1"))).as("another sender has its own sequence").isFalse();

        assertThat(watch.observe(4, meta("AODB", "1"))).isTrue();
        assertThat(watch.observe(5, meta("AODB", "2"))).as("the new sequence is followed").isFalse();
        assertThat(watch.observe(6, meta("AODB", "ABC"))).as("a non-numeric SEQN is not watched").isFalse();
        assertThat(restarts).containsExactly("AODB");
    }

    @Property
    void a_sequence_that_never_falls_more_than_the_window_never_counts_as_restarted(
            @ForAll @Size(min = 1, max = 200) List<@IntRange(min = -50, max = 200) Integer> steps) {
        restarts.clear();
        var watch = new SequenceWatch(50, metrics);
        long seqn = 1_000_000;
        long highest = seqn;
        for (int i = 0; i < steps.size(); i++) {
            seqn = Math.max(highest - 50, seqn + steps.get(i)); // never below the highest seen minus the window
            highest = Math.max(highest, seqn);
            watch.observe(i, meta("AODB", Long.toString(seqn)));
        }
        assertThat(restarts).isEmpty();
    }

    @Test
    void the_identity_algorithm_is_read_from_the_shape_of_the_latest_key() {
        assertThat(MessageIdentity.algorithmChange(Optional.empty(), true)).isEmpty();
        assertThat(MessageIdentity.algorithmChange(Optional.of("AODB|FLTR|UPD|17"), false)).isEmpty();
        assertThat(MessageIdentity.algorithmChange(Optional.of("AODB|FLTR|UPD|17|20240311"), true)).isEmpty();
        assertThat(MessageIdentity.algorithmChange(Optional.of("AODB|FLTR|UPD|17"), true)).hasValueSatisfying(reason ->
                assertThat(reason).contains("made without the day boundary", "msgx.identity.accept-algorithm-change"));
        assertThat(MessageIdentity.algorithmChange(Optional.of("AODB|FLTR|UPD|17|20240311"), false)).isPresent();
    }

    private static MessageMeta meta(String sender, String seqn) {
        return MessageMeta.of(sender, "FLTR", "UPD", seqn, LocalDateTime.of(2024, 3, 11, 8, 0));
    }
}
