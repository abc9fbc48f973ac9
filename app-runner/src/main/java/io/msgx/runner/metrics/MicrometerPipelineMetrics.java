package io.msgx.runner.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.msgx.pipeline.port.PipelineMetrics;
import io.msgx.pipeline.pump.HeadBlock;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.ProcStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The pipeline's {@link PipelineMetrics} bound to Micrometer. Counters count what happened; gauges hold the
 * last value reported. Every callback swallows (and logs) its own failure: metrics never fail the pipeline.
 *
 * <p>Tag values: {@code state} is the {@link ProcStatus} name; {@code error_class} is the {@link ErrorClass}
 * name, or {@value #NO_ERROR_CLASS} for a message that ended without one ({@code SUCCEEDED}, {@code SKIPPED}).
 */
public final class MicrometerPipelineMetrics implements PipelineMetrics {

    public static final String PERMANENT_HOLES = "msgx.inbox.permanent_holes";
    public static final String ENQUEUED = "msgx.inbox.enqueued";
    public static final String WATERMARK_LAG = "msgx.inbox.watermark_lag";
    public static final String MESSAGES_ENDED = "msgx.pipeline.messages.ended";
    public static final String ATTEMPTS_FAILED = "msgx.pipeline.attempts.failed";
    public static final String DUPLICATES = "msgx.pipeline.duplicates";
    public static final String SEQN_RESETS = "msgx.pipeline.seqn_resets";
    /** Rows skipped for their mailbox status; Prometheus: {@code msgx_pipeline_status_skips_messages_total{status}}. */
    public static final String STATUS_SKIPS = "msgx.pipeline.status_skips";
    /** The {@code status} tag of {@link #STATUS_SKIPS}: the status as written (trimmed, at most 20 characters). */
    public static final String TAG_STATUS = "status";
    public static final String DELIVERED = "msgx.dispatch.delivered";
    public static final String DELIVERY_FAILED = "msgx.dispatch.failed";
    public static final String DELIVERY_DEAD = "msgx.dispatch.dead";
    public static final String DISPATCH_PENDING = "msgx.dispatch.pending";
    public static final String DISPATCH_DEAD_LETTERS = "msgx.dispatch.dead_letters";
    public static final String DISPATCH_OLDEST_PENDING_SECONDS = "msgx.dispatch.oldest_pending_seconds";
    /** Commit of an outbox row to the broker's acknowledgement; Prometheus: {@code msgx_dispatch_commit_to_ack_seconds}. */
    public static final String COMMIT_TO_ACK = "msgx.dispatch.commit_to_ack";

    public static final String MESSAGE_PROCESSING = "msgx.pipeline.message.processing";
    public static final String GROUP_PROCESSING = "msgx.pipeline.group.processing";

    public static final String CODEC_UNMAPPED = "msgx.codec.unmapped";
    public static final String CODEC_NOT_A_TIME = "msgx.codec.not-a-time";
    public static final String BATCH_UNKNOWN_FLIGHTS = "msgx.flop.bodies.unknown-flight";
    public static final String HEAD_BLOCKED = "msgx.pipeline.head.blocked";

    public static final String TAG_STATE = "state";
    public static final String TAG_TYPE = "type";
    public static final String TAG_PATH = "path";
    public static final String TAG_REASON = "reason";
    public static final String TAG_ERROR_CLASS = "error_class";
    public static final String TAG_OUTCOME = "outcome";
    /** The {@code error_class} tag of a message that ended without an error class. */
    public static final String NO_ERROR_CLASS = "none";

    private static final Logger LOG = LoggerFactory.getLogger(MicrometerPipelineMetrics.class);

    private final MeterRegistry registry;
    private final Counter permanentHoles;
    private final Counter enqueued;
    private final Counter delivered;
    private final Counter deliveryFailed;
    private final Counter seqnResets;
    /** The duplicates counters by whether the content differs; one the registry refused is absent. */
    private final java.util.Map<Boolean, Counter> duplicates = new java.util.concurrent.ConcurrentHashMap<>();
    private final Counter deliveryDead;
    private final Timer commitToAck;
    private final Timer groupProcessing;
    // Gauges hold their state here, strongly referenced for the life of this binding.
    private final AtomicLong watermarkLag = new AtomicLong();
    private final AtomicLong dispatchPending = new AtomicLong();
    private final AtomicLong dispatchDead = new AtomicLong();
    private final AtomicLong oldestPendingMillis = new AtomicLong();
    private final AtomicReference<HeadBlock> headBlock = new AtomicReference<>(HeadBlock.NOT_BLOCKED);

    public MicrometerPipelineMetrics(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        permanentHoles = Counter.builder(PERMANENT_HOLES)
                .description("Mailbox IDs given up as a permanent hole after max-commit-delay")
                .baseUnit("ids").register(registry);
        enqueued = Counter.builder(ENQUEUED)
                .description("Mailbox rows the poller enqueued")
                .baseUnit("messages").register(registry);
        delivered = Counter.builder(DELIVERED)
                .description("Outbox events the broker acknowledged")
                .baseUnit("events").register(registry);
        deliveryFailed = Counter.builder(DELIVERY_FAILED)
                .description("Outbox event deliveries that failed (retried or dead)")
                .baseUnit("events").register(registry);
        seqnResets = Counter.builder(SEQN_RESETS)
                .description("Restarted SEQN sequences: a sender's SEQN fell far below the highest seen (D-86)")
                .register(registry);
        for (boolean differs : new boolean[] {false, true}) {
            guarded("register " + DUPLICATES, () -> duplicates.put(differs, duplicates(registry, differs ? "differs"
                    : "same")));
        }
        deliveryDead = Counter.builder(DELIVERY_DEAD)
                .description("Outbox events that became dead (retries used up)")
                .baseUnit("events").register(registry);
        commitToAck = Timer.builder(COMMIT_TO_ACK)
                .description("From an outbox row's commit (CREATED_AT) to the broker's acknowledgement of its event")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofHours(2))
                .register(registry);
        groupProcessing = Timer.builder(GROUP_PROCESSING)
                .description("Groups of messages applied in one transaction (D-34): read, decode, apply, commit")
                .register(registry);
        Gauge.builder(WATERMARK_LAG, watermarkLag, AtomicLong::get)
                .description("How far the watermark trails the highest mailbox ID the poller has seen")
                .baseUnit("ids").strongReference(true).register(registry);
        Gauge.builder(DISPATCH_PENDING, dispatchPending, AtomicLong::get)
                .description("Undelivered outbox rows")
                .baseUnit("events").strongReference(true).register(registry);
        Gauge.builder(DISPATCH_DEAD_LETTERS, dispatchDead, AtomicLong::get)
                .description("Dead outbox rows (kept as dead letters)")
                .baseUnit("events").strongReference(true).register(registry);
        Gauge.builder(DISPATCH_OLDEST_PENDING_SECONDS, oldestPendingMillis, millis -> millis.get() / 1000.0)
                .description("Age of the oldest undelivered outbox row; zero when none")
                .baseUnit("seconds").strongReference(true).register(registry);
        for (var block : HeadBlock.values()) {
            if (block != HeadBlock.NOT_BLOCKED) {
                guarded("register " + HEAD_BLOCKED, () -> Gauge.builder(HEAD_BLOCKED, headBlock,
                                held -> held.get() == block ? 1 : 0)
                        .description("1 while the FIFO head is held for this reason at the pump's last tick, else 0")
                        .tag(TAG_REASON, block.label())
                        .strongReference(true).register(registry));
            }
        }
    }

    @Override
    public void unmappedRead(String kind, String path) {
        guarded("unmappedRead", () -> registry.counter(CODEC_UNMAPPED, TAG_TYPE, kind, TAG_PATH, path).increment());
    }

    @Override
    public void timeNotUnderstood(String kind, String path) {
        guarded("timeNotUnderstood", () -> registry.counter(CODEC_NOT_A_TIME, TAG_TYPE, kind, TAG_PATH, path).increment());
    }

    @Override
    public void operationsOnUnknownFlights(int bodies) {
        guarded("operationsOnUnknownFlights", () -> registry.counter(BATCH_UNKNOWN_FLIGHTS).increment(bodies));
    }

    @Override
    public void fifoHead(HeadBlock block) {
        guarded("fifoHead", () -> headBlock.set(block == null ? HeadBlock.NOT_BLOCKED : block));
    }

    @Override
    public void permanentHoleReleased(long fromId, long toId) {
        guarded("permanentHoleReleased", () -> increment(permanentHoles, toId - fromId + 1));
    }

    @Override
    public void watermarkLag(long ids) {
        guarded("watermarkLag", () -> watermarkLag.set(Math.max(0, ids)));
    }

    @Override
    public void enqueued(int rows) {
        guarded("enqueued", () -> increment(enqueued, rows));
    }

    @Override
    public void messageEnded(ProcStatus status, ErrorClass errorClass) {
        guarded("messageEnded", () -> registry.counter(MESSAGES_ENDED,
                TAG_STATE, status == null ? "unknown" : status.name(),
                TAG_ERROR_CLASS, errorClassTag(errorClass)).increment());
    }

    @Override
    public void messageProcessed(String outcome, Duration took) {
        guarded("messageProcessed", () -> Timer.builder(MESSAGE_PROCESSING)
                .description("Messages processed, by outcome; in a group each message takes its share of the group's "
                        + "time")
                .tag(TAG_OUTCOME, outcome == null ? "unknown" : outcome)
                .register(registry).record(took));
    }

    @Override
    public void groupProcessed(int messages, Duration took) {
        guarded("groupProcessed", () -> groupProcessing.record(took));
    }

    /** Messages skipped as duplicates, by whether their content is the holder's ({@code same}) or not ({@code differs}). */
    private static Counter duplicates(MeterRegistry registry, String content) {
        return Counter.builder(DUPLICATES)
                .description("Messages skipped as the duplicate of another with the same identity, by whether their"
                        + " content differs from it (D-84)")
                .tag("content", content).baseUnit("messages").register(registry);
    }

    @Override
    public void sequenceRestarted(String sender) {
        guarded("sequenceRestarted", seqnResets::increment);
    }

    @Override
    public void duplicateSkipped(boolean contentDiffers) {
        guarded("duplicateSkipped", () -> {
            var counter = duplicates.get(contentDiffers);
            if (counter != null) {
                counter.increment();
            }
        });
    }

    @Override
    public void statusSkipped(String status) {
        guarded("statusSkipped", () -> Counter.builder(STATUS_SKIPS)
                .description("Mailbox rows skipped for their CMINMSGS_STATUS, which the configuration does not accept:"
                        + " no message (sis-format §10, D-110)")
                .tag(TAG_STATUS, status == null ? "" : status.length() > 20 ? status.substring(0, 20) : status)
                .baseUnit("messages").register(registry).increment());
    }

    @Override
    public void attemptFailed(ErrorClass errorClass) {
        guarded("attemptFailed", () -> registry.counter(ATTEMPTS_FAILED,
                TAG_ERROR_CLASS, errorClassTag(errorClass)).increment());
    }

    @Override
    public void eventsDelivered(int events) {
        guarded("eventsDelivered", () -> increment(delivered, events));
    }

    @Override
    public void committedToAcknowledged(Duration sinceCommit) {
        guarded("committedToAcknowledged", () -> commitToAck.record(sinceCommit.isNegative() ? Duration.ZERO
                : sinceCommit));
    }

    @Override
    public void eventDeliveriesFailed(int failed, int dead) {
        guarded("eventDeliveriesFailed", () -> {
            increment(deliveryFailed, failed);
            increment(deliveryDead, dead);
        });
    }

    @Override
    public void deliveryBacklog(long pending, long dead, Duration oldestPendingAge) {
        guarded("deliveryBacklog", () -> {
            dispatchPending.set(pending);
            dispatchDead.set(dead);
            oldestPendingMillis.set(oldestPendingAge == null || oldestPendingAge.isNegative()
                    ? 0 : oldestPendingAge.toMillis());
        });
    }

    private static String errorClassTag(ErrorClass errorClass) {
        return errorClass == null ? NO_ERROR_CLASS : errorClass.name();
    }

    /** Counters only go up: a zero or negative amount (nothing happened) is not counted. */
    private static void increment(Counter counter, long amount) {
        if (amount > 0) {
            counter.increment(amount);
        }
    }

    private static void guarded(String callback, Runnable update) {
        try {
            update.run();
        } catch (RuntimeException e) {
            LOG.warn("Metric update {} failed and was dropped; the pipeline carries on: {}", callback, e.toString());
        }
    }
}
