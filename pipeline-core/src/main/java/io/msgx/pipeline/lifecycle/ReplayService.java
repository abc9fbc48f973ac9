package io.msgx.pipeline.lifecycle;

import io.msgx.pipeline.audit.AuditResult;
import io.msgx.pipeline.audit.AuditedAction;
import io.msgx.pipeline.port.MessageReplays;
import io.msgx.pipeline.record.ErrorClass;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * An operator's replay (seeds §9.1): messages that failed or died for a replayable reason go back to
 * {@code PENDING} with attempts, next attempt and error reset; their business identity is kept, so a replay
 * is never mistaken for a duplicate of itself.
 *
 * <p>Only the error classes of {@code msgx.replay.error-classes} qualify (default: the classes a fix on our side
 * or a recovered system can cure). A replayed message is processed again in mailbox-ID order, ahead of later
 * pending ones — but messages after it may already have been applied: <b>a replay does not restore history
 * order</b>. Versions protect consumers (nothing older overwrites newer state downstream), not the flight
 * state: judge what the replayed message will overwrite before replaying it.
 */
public final class ReplayService {

    /** Classes whose cause can go away: our own defects, outages, and exhausted retries. */
    public static final Set<ErrorClass> DEFAULT_REPLAYABLE = EnumSet.of(ErrorClass.EXHAUSTED, ErrorClass.INFRA,
            ErrorClass.CODEC_ERROR, ErrorClass.UNSUPPORTED, ErrorClass.INTERNAL);

    private static final Logger log = LoggerFactory.getLogger(ReplayService.class);

    private final MessageReplays replays;
    private final MessageLifecycleGate gate;
    private final Set<ErrorClass> replayable;
    private final Clock clock;

    public ReplayService(MessageReplays replays, MessageLifecycleGate gate, Set<ErrorClass> replayable, Clock clock) {
        this.replays = replays;
        this.gate = gate;
        this.replayable = Set.copyOf(replayable);
        this.clock = clock;
    }

    /** The outcome: which of the requested messages went back to PENDING, and which did not qualify. */
    public record Replay(List<Long> replayed, List<Long> refused) {
    }

    /**
     * An operator's replay as an audited action (D-138): under the gate, the replay and its {@code OPERATOR_AUDIT} row
     * in one transaction of the store {@code audit} writes to — {@code DONE}, {@code PARTLY} or {@code REFUSED} with
     * the IDs replayed and refused. (The replay runs on that transaction's {@code MessageReplays}, not this service's.)
     */
    public Replay replay(Collection<Long> msgIds, AuditedAction audit) {
        var requested = new TreeSet<>(msgIds);
        var replayed = gate.exclusively(() -> audit.run(tx -> tx.replays().replay(requested, replayable,
                clock.instant()), ids -> AuditResult.of(ids, notAmong(requested, ids), ids.size() == requested.size()
                ? null : "not replayable: state, or error class outside " + replayable)));
        var refused = notAmong(requested, replayed);
        log.info("Replay by {}: {} message(s) back to PENDING {}; not replayable (state or class outside {}): {}",
                audit.actor().name(), replayed.size(), replayed, replayable, refused);
        return new Replay(List.copyOf(replayed), refused);
    }

    private static List<Long> notAmong(Collection<Long> requested, Collection<Long> replayed) {
        return requested.stream().filter(id -> !replayed.contains(id)).toList();
    }

    public Replay replay(Collection<Long> msgIds, String operator) {
        var requested = new TreeSet<>(msgIds);
        var replayed = gate.exclusively(() -> replays.replay(requested, replayable, clock.instant()));
        var refused = requested.stream().filter(id -> !replayed.contains(id)).toList();
        log.info("Replay by {}: {} message(s) back to PENDING {}; not replayable (state or class outside {}): {}",
                operator, replayed.size(), replayed, replayable, refused);
        return new Replay(List.copyOf(replayed), refused);
    }
}
