package io.msgx.pipeline.pump;

import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.InboxCursor;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** What holds the FIFO head, as status, readiness, the console and the pump's gauge all tell it. */
class FifoHeadTest {

    private static final Instant NOW = Instant.parse("2024-03-11T08:00:00Z");

    @Property
    void a_head_is_blocked_exactly_when_it_is_above_the_watermark_or_failed_and_not_yet_due(
            @ForAll @LongRange(min = 1, max = 1_000) long msgId, @ForAll @LongRange(min = 0, max = 1_000) long watermark,
            @ForAll boolean failed, @ForAll @LongRange(min = -600, max = 600) long dueInSeconds, @ForAll boolean hole,
            @ForAll ErrorClass errorClass) {
        var head = failed ? failedHead(msgId, errorClass, NOW.plusSeconds(dueInSeconds)) : pendingHead(msgId);
        var cursor = new InboxCursor(watermark, hole ? NOW.minusSeconds(5) : null, null);

        var block = HeadBlock.of(head, cursor, NOW);

        if (msgId > watermark) {
            assertThat(block).isEqualTo(hole ? HeadBlock.HOLE : HeadBlock.BEYOND_WATERMARK);
        } else if (failed && dueInSeconds > 0) {
            assertThat(block).isEqualTo(errorClass == ErrorClass.UNSUPPORTED ? HeadBlock.UNSUPPORTED : HeadBlock.BACKOFF);
        } else {
            assertThat(block).isEqualTo(HeadBlock.NOT_BLOCKED);
        }
    }

    @Test
    void the_summary_names_the_message_its_kind_state_attempts_and_what_holds_it() {
        var head = FifoHead.of(failedHead(4711, ErrorClass.UNSUPPORTED, NOW.plusSeconds(30)),
                new InboxCursor(5000, null, null), "FLOP-XXXX", NOW);

        assertThat(head.blocked()).isTrue();
        assertThat(head.age()).isEqualTo(Duration.ofMinutes(12));
        assertThat(head.summary()).isEqualTo("4711 FLOP-XXXX FAILED(UNSUPPORTED), 3 attempts, next at "
                + NOW.plusSeconds(30) + ", blocked by unsupported, open 720 s");
    }

    @Test
    void a_pending_head_of_unknown_kind_is_due_and_says_so() {
        var head = FifoHead.of(pendingHead(12), new InboxCursor(12, null, null), null, NOW);

        assertThat(head.blocked()).isFalse();
        assertThat(head.summary()).isEqualTo("12 ? PENDING, due, open 720 s");
    }

    @Test
    void a_clock_behind_the_enqueue_time_gives_age_zero_not_a_negative_age() {
        var head = FifoHead.of(pendingHead(12), new InboxCursor(12, null, null), "FLTR-UPD", NOW.minusSeconds(3600));

        assertThat(head.age()).isEqualTo(Duration.ZERO);
    }

    private static ProcRecord pendingHead(long msgId) {
        return new ProcRecord(msgId, ProcStatus.PENDING, null, 0, null, null, null, null, NOW.minus(Duration.ofMinutes(12)),
                NOW, null, null, 0, null, null, null);
    }

    private static ProcRecord failedHead(long msgId, ErrorClass errorClass, Instant nextAttemptAt) {
        return new ProcRecord(msgId, ProcStatus.FAILED, "AODB|FLOP|XXXX|1", 3, nextAttemptAt, errorClass, "no processor",
                null, NOW.minus(Duration.ofMinutes(12)), NOW, null, null, 0, null, null, null);
    }
}
