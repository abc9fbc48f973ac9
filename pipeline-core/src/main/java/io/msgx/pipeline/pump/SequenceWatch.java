package io.msgx.pipeline.pump;

import io.msgx.pipeline.codec.MessageMeta;
import io.msgx.pipeline.port.PipelineMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;

/**
 * Watches each sender's {@code SEQN} for a restart (Q11, C-20, D-86). The default identity {@code SNDR|TYPE|STYP|SEQN}
 * has no day boundary: an AODB that restarts its sequence would see its new messages skipped as duplicates of old
 * ones, in silence. A numeric {@code SEQN} that falls more than the window below the highest this instance has seen
 * from its sender is a restart: it is logged as an ERROR naming the fix and counted ({@code msgx_pipeline_seqn_resets
 * _total}, alerted on), and the watch follows the new sequence from there. Reordering within the window is normal.
 * Non-numeric sequences are not watched. In memory: a restart met while this instance was down is not seen (the
 * duplicates it causes are, in {@code msgx_pipeline_duplicates_messages_total}). Used by the pump's thread only.
 */
final class SequenceWatch {

    private static final Logger log = LoggerFactory.getLogger(SequenceWatch.class);

    private final long window;
    private final PipelineMetrics metrics;
    private final Map<String, Long> highest = new HashMap<>();

    SequenceWatch(long window, PipelineMetrics metrics) {
        this.window = window;
        this.metrics = metrics;
    }

    /** Looks at a message's sender and {@code SEQN}; true when they show a restarted sequence. */
    boolean observe(long msgId, MessageMeta meta) {
        long seqn;
        try {
            seqn = Long.parseLong(meta.sequence().strip());
        } catch (NumberFormatException notNumeric) {
            return false;
        }
        var before = highest.get(meta.sender());
        if (before == null || seqn > before) {
            highest.put(meta.sender(), seqn);
            return false;
        }
        if (before - seqn <= window) {
            return false;
        }
        highest.put(meta.sender(), seqn);
        metrics.sequenceRestarted(meta.sender());
        try (var context = MessageLogContext.message(msgId)) {
            log.error("Sender {} restarted its SEQN: message {} has SEQN {} after {} (more than {} back). With the"
                    + " identity SNDR|TYPE|STYP|SEQN its new messages are skipped as duplicates of old ones that hold the"
                    + " same identity. If the AODB restarts SEQN every day, set msgx.identity.include-day-boundary=true"
                    + " (with msgx.identity.accept-algorithm-change=true for the first start, D-86); the skipped ones are"
                    + " listed with reason duplicate-of", meta.sender(), msgId, seqn, before, window);
        }
        return true;
    }
}
