package io.msgx.pipeline.pump;

import io.msgx.pipeline.codec.DecodeResult;
import io.msgx.pipeline.port.PipelineMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Makes what a message carried and the model does not know loud, never silent (sis-format §3): each path of a
 * message that ended is counted ({@link PipelineMetrics#unmappedRead}, by {@code TYPE-STYP} and path), and the
 * first message to carry a path is logged with its ID, once per path for the life of this instance.
 *
 * <p>Paths come from the sender; so that a sender inventing names cannot grow this instance's memory or the
 * metric's series without bound, nor use up what the other senders' new paths need, each sender ({@code SNDR}) has
 * its own budget of {@link #MAX_PATHS_PER_SENDER} distinct paths, all senders together at most
 * {@link #MAX_DISTINCT_PATHS}, and the senders beyond the first {@link #MAX_SENDERS} share one budget. Paths beyond
 * a budget are counted under {@link #OTHER_PATHS} (logged once per sender when that starts).
 */
final class UnmappedTally {

    /** How many distinct {@code TYPE-STYP} and path pairs are counted and logged apart, all senders together. */
    static final int MAX_DISTINCT_PATHS = 1_000;

    /** How many of them one sender's messages may add. */
    static final int MAX_PATHS_PER_SENDER = 250;

    /** How many senders get a budget of their own; the others share one, under {@link #OTHER_SENDERS}. */
    static final int MAX_SENDERS = 32;

    static final String OTHER_SENDERS = "(other senders)";

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
        var sender = read.message().meta().sender();
        for (var path : read.unmapped()) {
            metrics.unmappedRead(kind, unmapped.counted(sender, kind, path, msgId, () -> log.warn("Message {}: {} carries {}, "
                    + "which the model does not map. A value in a flight record or FLOP body is kept in the flight's "
                    + "EXTENSIONS (D-120); every value is in the raw message ('message show {} --raw'). Counted in "
                    + "msgx.codec.unmapped; logged once per path", msgId, kind, path, msgId)));
        }
        for (var path : read.notTimes()) {
            metrics.timeNotUnderstood(kind, notTimes.counted(sender, kind, path, msgId, () -> log.warn("Message {}: {} carries "
                    + "{} with a value that is no time (neither ddMMMyyHHmm nor ddMMMyy); kept as sent. Counted in "
                    + "msgx.codec.not-a-time; logged once per path", msgId, kind, path)));
        }
    }

    /**
     * The {@code TYPE-STYP} and path pairs of one kind of report told apart so far, within each sender's budget and
     * {@link #MAX_DISTINCT_PATHS} in all; the path to count a pair under: its own, or {@link #OTHER_PATHS} once a
     * budget is spent.
     */
    private static final class Distinct {

        private final Set<String> seen = ConcurrentHashMap.newKeySet();
        private final Map<String, Set<String>> bySender = new ConcurrentHashMap<>();
        private final String what;

        Distinct(String what) {
            this.what = what;
        }

        /** The path to count {@code path} under; {@code firstTime} runs when the pair is told apart for the first time. */
        synchronized String counted(String sender, String kind, String path, long msgId, Runnable firstTime) {
            var pair = kind + " " + path;
            if (seen.contains(pair)) {
                return path;
            }
            var budget = bySender.get(sender);
            if (budget == null) {
                budget = bySender.size() < MAX_SENDERS ? bySender.computeIfAbsent(sender, s -> new HashSet<>())
                        : bySender.computeIfAbsent(OTHER_SENDERS, s -> new HashSet<>());
            }
            if (budget.size() >= MAX_PATHS_PER_SENDER || seen.size() >= MAX_DISTINCT_PATHS) {
                if (budget.add(OTHER_PATHS)) {
                    log.warn("Message {}: {} from {} carries {}, {}; the distinct paths this sender may add ({}, {} for "
                            + "all senders) are counted already, so this and its further new paths are counted as {} "
                            + "and not logged", msgId, kind, sender, path, what, MAX_PATHS_PER_SENDER,
                            MAX_DISTINCT_PATHS, OTHER_PATHS);
                }
                return OTHER_PATHS;
            }
            budget.add(pair);
            seen.add(pair);
            firstTime.run();
            return path;
        }
    }
}
