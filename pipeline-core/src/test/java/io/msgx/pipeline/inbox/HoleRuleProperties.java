package io.msgx.pipeline.inbox;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hole rule's promises (issue 25, point 5), for any watermark, any rows read after it (with gaps anywhere), any
 * timer and any time: intake never goes back, never skips a row that is there, never takes a row behind a gap younger
 * than {@code max-commit-delay}, and gives up a gap (only the gap) once it is older.
 */
class HoleRuleProperties {

    private static final Duration MAX_COMMIT_DELAY = Duration.ofSeconds(30);
    private static final Instant NOW = Instant.parse("2026-12-02T10:00:00Z");

    /** A round's input: the watermark, the IDs read after it, and how old the cursor's timer is (or none). */
    record Round(long watermark, List<Long> idsRead, Long timerAgeSeconds) {

        Instant holeSince() {
            return timerAgeSeconds == null ? null : NOW.minusSeconds(timerAgeSeconds);
        }

        HoleRule.Decision decide() {
            return HoleRule.decide(watermark, holeSince(), idsRead, NOW, MAX_COMMIT_DELAY);
        }
    }

    @Provide
    Arbitrary<Round> rounds() {
        var watermark = Arbitraries.longs().between(0, 1_000_000);
        var steps = Arbitraries.integers().between(1, 4).list().ofMaxSize(12); // a step of n > 1 leaves n-1 missing
        var timer = Arbitraries.longs().between(0, 120).injectNull(0.3);
        return Combinators.combine(watermark, steps, timer).as((w, gaps, age) -> {
            var ids = new ArrayList<Long>();
            long id = w;
            for (int step : gaps) {
                id += step;
                ids.add(id);
            }
            return new Round(w, ids, age);
        });
    }

    @Property
    void theWatermarkNeverGoesBack(@ForAll("rounds") Round round) {
        assertThat(round.decide().watermark()).isGreaterThanOrEqualTo(round.watermark());
    }

    @Property
    void everyRowUpToTheNewWatermarkIsTakenAndNoRowBeyondIt(@ForAll("rounds") Round round) {
        var decision = round.decide();
        var taken = round.idsRead().subList(0, decision.take());

        assertThat(taken).allSatisfy(id -> assertThat(id).isLessThanOrEqualTo(decision.watermark()));
        assertThat(round.idsRead().stream().filter(id -> id <= decision.watermark()).toList())
                .as("no row there is passed over").isEqualTo(taken);
    }

    @Property
    void theTakenRowsAreConsecutiveFromTheWatermark(@ForAll("rounds") Round round) {
        var taken = round.idsRead().subList(0, round.decide().take());
        for (int i = 0; i < taken.size(); i++) {
            assertThat(taken.get(i)).isEqualTo(round.watermark() + 1 + i);
        }
    }

    @Property
    void aYoungGapHoldsEverythingAfterItAndAnOldOneGivesUpOnlyItsOwnIds(@ForAll("rounds") Round round) {
        var decision = round.decide();
        var read = new TreeSet<>(round.idsRead());
        if (decision instanceof HoleRule.Advance) {
            assertThat(decision.take()).as("no gap: every row read is taken").isEqualTo(round.idsRead().size());
        } else if (decision instanceof HoleRule.HoldAtHole hold) {
            assertThat(Duration.between(hold.since(), NOW)).isLessThan(MAX_COMMIT_DELAY);
            assertThat(read).doesNotContain(hold.missingId());
            assertThat(read.higher(hold.missingId())).as("a row stands after the gap").isNotNull();
            assertThat(hold.watermark()).isEqualTo(hold.missingId() - 1);
        } else if (decision instanceof HoleRule.ReleaseHole release) {
            assertThat(Duration.between(release.since(), NOW)).isGreaterThanOrEqualTo(MAX_COMMIT_DELAY);
            for (long id = release.missingId(); id <= release.watermark(); id++) {
                assertThat(read).as("only missing IDs are given up").doesNotContain(id);
            }
            assertThat(read).as("the watermark stops right before the next row there")
                    .contains(release.watermark() + 1);
        }
    }

    @Property
    void theTimerRunsFromTheGapsFirstSightingAndRestartsWhereTheGapMoved(@ForAll("rounds") Round round) {
        var decision = round.decide();
        Instant since = decision instanceof HoleRule.HoldAtHole hold ? hold.since()
                : decision instanceof HoleRule.ReleaseHole release ? release.since() : null;
        if (since == null) {
            return;
        }
        boolean sameGap = decision.take() == 0 && round.holeSince() != null;
        assertThat(since).isEqualTo(sameGap ? round.holeSince() : NOW);
    }
}
