package io.msgx.pipeline.pump;

import io.msgx.pipeline.codec.DecodeResult;
import io.msgx.pipeline.port.PipelineMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Makes what a message carried and the model does not know loud, never silent (sis-format §3): each path of a
 * message that ended is counted ({@link PipelineMetrics#unmappedRead}, by {@code TYPE-STYP} and path), and the
 * first message to carry a path is logged with its ID, once per path for the life of this instance.
 *
 * <p>Paths come from the sender; so that a sender inventing names cannot grow this instance's memory or the
 * metric's series without bound, at most {@link #MAX_DISTINCT_PATHS} distinct paths are told apart, and the rest
 * are counted under {@link #OTHER_PATHS} (logged once when that starts).
 */
final class UnmappedTally {

    /** How many distinct {@code TYPE-STYP} and path pairs are counted and logged apart. */
    static final int MAX_DISTINCT_PATHS = 1_000;

    /** The path under which the pairs beyond {@link #MAX_DISTINCT_PATHS} are counted. */
    static final String OTHER_PATHS = "(other)";

    private static final Logger log = LoggerFactory.getLogger(UnmappedTally.class);

    private final PipelineMetrics metrics;
    private final Distinct unmapped = new Distinct("which the model does not map");
    private final Distinct notTimes = new Distinct("a time field whose value is no time");

    UnmappedTally(PipelineMetrics metrics) {
        this.metrics = metrics;
    }

    /**
     * Count and, the first time, log the unmapped paths of message {@code msgId}, which has ended, and its time fields
     * whose value is no time (kept as sent, v3 §10).
     */
    void report(long msgId, DecodeResult.Decoded read) {
        var kind = read.message().meta().kind();
        for (var path : read.unmapped()) {
            metrics.unmappedRead(kind, unmapped.counted(kind, path, msgId, () -> log.warn("Message {}: {} carries {}, "
                    + "which the model does not map. A value in a flight record or FLOP body is kept in the flight's "
                    + "EXTENSIONS (D-120); every value is in the raw message ('message show {} --raw'). Counted in "
                    + "msgx.codec.unmapped; logged once per path", msgId, kind, path, msgId)));
        }
        for (var path : read.notTimes()) {
            metrics.timeNotUnderstood(kind, notTimes.counted(kind, path, msgId, () -> log.warn("Message {}: {} carries "
                    + "{} with a value that is no time (neither ddMMMyyHHmm nor ddMMMyy); kept as sent. Counted in "
                    + "msgx.codec.not-a-time; logged once per path", msgId, kind, path)));
        }
    }

    /**
     * The {@code TYPE-STYP} and path pairs of one kind of report told apart so far, at most {@link #MAX_DISTINCT_PATHS};
     * the path to count a pair under: its own, or {@link #OTHER_PATHS} once the limit is reached.
     */
    private static final class Distinct {

        private final Set<String> seen = ConcurrentHashMap.newKeySet();
        private final String what;

        Distinct(String what) {
            this.what = what;
        }

        /** The path to count {@code path} under; {@code firstTime} runs when the pair is told apart for the first time. */
        String counted(String kind, String path, long msgId, Runnable firstTime) {
            var pair = kind + " " + path;
            if (seen.contains(pair)) {
                return path;
            }
            if (seen.size() >= MAX_DISTINCT_PATHS) {
                if (seen.add(kind + " " + OTHER_PATHS)) {
                    log.warn("Message {}: {} carries {}, {}; {} distinct paths of that kind are already counted, so this "
                            + "and further new paths of {} are counted as {} and not logged",
                            msgId, kind, path, what, MAX_DISTINCT_PATHS, kind, OTHER_PATHS);
                }
                return OTHER_PATHS;
            }
            if (seen.add(pair)) {
                firstTime.run();
            }
            return path;
        }
    }
}
