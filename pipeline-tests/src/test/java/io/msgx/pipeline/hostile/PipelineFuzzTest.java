package io.msgx.pipeline.hostile;

import io.msgx.pipeline.pump.ProcessingSettings;
import io.msgx.pipeline.testing.SisMessages;
import io.msgx.testing.Slow;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Mutated SIS messages through the whole pipeline over the in-memory mailbox and the H2 test store, in batches: each batch is the opening
 * schedule (so operations find flights), {@value #BATCH} mutants and a valid canary, driven until nothing is open
 * and then checked by {@link PipelineBatch#check}. Batches alternate between grouped processing (the default
 * group size) and one message at a time, the two paths of the pump; every other pair of batches also runs through
 * the other path, which must end every message the same way. Each batch must finish within
 * {@link #BATCH_TIMEOUT} — a hang fails the run instead of blocking it.
 *
 * <p>Short by default ({@code msgx.fuzz.count}, see {@link FuzzSettings}); the long form is
 * {@code -Dmsgx.fuzz.count=1000000}. A failure prints the seed, the batch's first index, the rerun properties and
 * the offending mutants.
 */
@Slow
class PipelineFuzzTest {

    static final int BATCH = 250;
    static final int GROUPED = ProcessingSettings.DEFAULT_GROUP_SIZE;
    static final Duration BATCH_TIMEOUT = Duration.ofSeconds(60);

    private final FuzzSettings settings = FuzzSettings.fromSystemProperties();
    private final SeedCorpus corpus = SeedCorpus.build();
    private final XmlMutator mutator = new XmlMutator(settings.seed(), corpus);

    @Test
    void every_mutant_ends_recorded_in_fifo_order_and_the_flight_state_stays_sound() {
        var tally = new OutcomeTally();
        long started = System.nanoTime();
        long end = settings.from() + settings.pipelineCount();
        for (long first = settings.from(); first < end; first += BATCH) {
            long from = first;
            long to = Math.min(end, first + BATCH);
            int groupSize = (from / BATCH) % 2 == 0 ? GROUPED : 1;
            var batch = assertTimeoutPreemptively(BATCH_TIMEOUT, () -> runBatch(from, to, groupSize),
                    () -> "batch of mutants " + from + ".." + (to - 1) + " did not finish within " + BATCH_TIMEOUT
                            + "; rerun with " + settings.rerunFrom(from, to - from));
            var problems = batch.check();
            if (!problems.isEmpty()) {
                fail(report(batch, problems, from, to, groupSize));
            }
            if ((from / BATCH) % 4 < 2) {
                int otherSize = groupSize == 1 ? GROUPED : 1;
                var other = assertTimeoutPreemptively(BATCH_TIMEOUT, () -> runBatch(from, to, otherSize),
                        () -> "batch of mutants " + from + ".." + (to - 1) + " with group size " + otherSize
                                + " did not finish within " + BATCH_TIMEOUT + "; rerun with " + settings.rerunFrom(from, to - from));
                var differences = batch.differencesFrom(other);
                if (!differences.isEmpty()) {
                    fail(report(batch, differences, from, to, groupSize));
                }
            }
            batch.items().forEach((id, item) -> {
                if (item.mutant() != null) {
                    tally.add(batch.label(id), item.mutant());
                }
            });
        }
        long millis = Duration.ofNanos(System.nanoTime() - started).toMillis();
        System.out.println(tally.report("Hostile input through the pipeline (seed " + settings.seed() + ")", millis));

        assertThat(tally.total()).isEqualTo(settings.pipelineCount());
        assertThat(tally.count("NO RECORD")).isZero();
        if (settings.pipelineCount() >= 2_000) {
            // The mutants must reach every part of the pipeline, not only the codec's refusal.
            assertThat(tally.outcomes().keySet()).as("outcomes reached").contains("SUCCEEDED", "DEAD(MALFORMED)",
                    "DEAD(PROTOCOL)", "DEAD(EXHAUSTED)", "SKIPPED(ignored)", "SKIPPED(no-match)", "SKIPPED(duplicate-of)");
        }
    }

    private PipelineBatch runBatch(long from, long to, int groupSize) {
        var batch = new PipelineBatch(groupSize);
        corpus.opening().forEach(xml -> batch.append(new PipelineBatch.Item(xml, null)));
        for (long index = from; index < to; index++) {
            var mutant = mutator.mutant(index);
            batch.append(new PipelineBatch.Item(mutant.xml(), mutant));
        }
        var sis = new SisMessages();
        batch.appendCanary(sis.withSeqn(sis.adft(fltr("CANARY-" + from, "11MAR241500", "FLNO", "CA9999")), 900_000_000L + from));
        batch.runToTheEnd();
        return batch;
    }

    private String report(PipelineBatch batch, List<String> problems, long from, long to, int groupSize) {
        var mutants = batch.mutantsNamedIn(problems, 3, settings.seed());
        List<String> shown = new ArrayList<>(problems.subList(0, Math.min(10, problems.size())));
        return problems.size() + " broken promise(s) in the batch of mutants " + from + ".." + (to - 1) + " (group size "
                + groupSize + "); rerun with " + settings.rerunFrom(from, to - from) + "\n  "
                + String.join("\n  ", shown) + "\n"
                + String.join("\n\n", mutants);
    }
}
