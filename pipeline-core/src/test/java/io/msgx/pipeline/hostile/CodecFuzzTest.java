package io.msgx.pipeline.hostile;

import io.msgx.pipeline.codec.DecodeResult;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.codec.XmlCodec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Mutants through the codec alone, for volume ({@code msgx.fuzz.codec-count}): decoding never throws and never
 * reports a codec defect ({@link DecodeResult.CodecError}, which the pipeline would retry as a bug of ours); a
 * refusal always says why; {@code peek} works on any text; decoding the same text twice gives the same answer
 * (see {@link #sameAnswer} for the one way the reason may differ).
 * The pipeline-level promises are {@code PipelineFuzzTest}'s (pipeline-tests); the named attacks are in
 * {@code codec.HardeningTest} (codec) and {@code HostileInputPipelineTest} (pipeline-tests).
 */
class CodecFuzzTest {

    private static final int CHUNK = 5_000;
    private static final Duration CHUNK_TIMEOUT = Duration.ofSeconds(60);

    private final FuzzSettings settings = FuzzSettings.fromSystemProperties();
    private final XmlMutator mutator = new XmlMutator(settings.seed(), SeedCorpus.build());
    private final XmlCodec codec = new JacksonXmlCodec();

    @Test
    void the_codec_answers_every_mutant_with_a_decoded_message_or_a_reason() {
        var tally = new OutcomeTally();
        long started = System.nanoTime();
        long slowest = 0;
        int longestReason = 0;
        long end = settings.from() + settings.codecCount();
        for (long first = settings.from(); first < end; first += CHUNK) {
            long from = first;
            long to = Math.min(end, first + CHUNK);
            var chunk = assertTimeoutPreemptively(CHUNK_TIMEOUT, () -> decodeChunk(from, to),
                    () -> "mutants " + from + ".." + (to - 1) + " took longer than " + CHUNK_TIMEOUT
                            + "; rerun with " + settings.rerunFrom(from, to - from));
            chunk.tally(tally::add);
            slowest = Math.max(slowest, chunk.slowestNanos());
            longestReason = Math.max(longestReason, chunk.longestReason());
        }
        long millis = Duration.ofNanos(System.nanoTime() - started).toMillis();
        System.out.println(tally.report("Hostile input through the codec (seed " + settings.seed() + ")", millis)
                + "  slowest decode " + Duration.ofNanos(slowest).toMillis() + " ms, longest reason " + longestReason + " chars");

        assertThat(tally.total()).isEqualTo(settings.codecCount());
        assertThat(tally.count("CodecError")).isZero();
        if (settings.codecCount() >= 2_000) {
            assertThat(tally.count("Decoded")).as("some mutants stay readable, so mapping is fuzzed too").isPositive();
            assertThat(tally.count("Malformed")).isPositive();
        }
    }

    /**
     * The same decoded message, or a refusal both times. Not always the same reason: when a text runs past
     * Woodstox's size backstop and also holds an illegal character further on, which of the two Woodstox reports
     * first depends on the size of the buffer it recycled from the previous document on this thread (found by
     * the long run: mutant 63344 of seed 20240311). Either way the message ends {@code DEAD(MALFORMED)}.
     */
    private static boolean sameAnswer(DecodeResult first, DecodeResult second) {
        return first.equals(second)
                || first instanceof DecodeResult.Malformed && second instanceof DecodeResult.Malformed;
    }

    /** What one chunk of mutants came to. */
    private record Chunk(List<Map.Entry<String, XmlMutator.Mutation>> labelled, long slowestNanos,
                         int longestReason) {

        void tally(BiConsumer<String, XmlMutator.Mutation> sink) {
            labelled.forEach(e -> sink.accept(e.getKey(), e.getValue()));
        }
    }

    private Chunk decodeChunk(long from, long to) {
        var labelled = new ArrayList<Map.Entry<String, XmlMutator.Mutation>>();
        long slowest = 0;
        int longestReason = 0;
        for (long index = from; index < to; index++) {
            var mutant = mutator.mutant(index);
            DecodeResult result;
            long t0 = System.nanoTime();
            try {
                codec.peek(mutant.xml());
                result = codec.decode(mutant.xml());
            } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
                fail("the codec threw " + e + " on " + mutant.describe(settings.seed()), e);
                return null;
            }
            slowest = Math.max(slowest, System.nanoTime() - t0);
            if (result instanceof DecodeResult.CodecError error) {
                fail("codec defect '" + error.reason() + "' on " + mutant.describe(settings.seed()));
            }
            if (result instanceof DecodeResult.Malformed malformed) {
                if (malformed.reason().isBlank()) {
                    fail("a refusal without a reason on " + mutant.describe(settings.seed()));
                }
                longestReason = Math.max(longestReason, malformed.reason().length());
            }
            if (index % 16 == 0 && !sameAnswer(result, codec.decode(mutant.xml()))) {
                fail("decoding twice gave two answers on " + mutant.describe(settings.seed()));
            }
            labelled.add(Map.entry(result.getClass().getSimpleName(), mutant.mutations().get(0)));
        }
        return new Chunk(labelled, slowest, longestReason);
    }
}
