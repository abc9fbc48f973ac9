package io.msgx.pipeline.pump;

import io.msgx.pipeline.codec.DecodeResult;
import io.msgx.pipeline.codec.DecodedMessage;
import io.msgx.pipeline.codec.MessageMeta;
import io.msgx.pipeline.codec.XmlCodec;
import io.msgx.pipeline.mailbox.MailboxContent;
import io.msgx.pipeline.mailbox.MailboxRowUnreadableException;
import io.msgx.pipeline.mailbox.MailboxUnavailableException;
import io.msgx.pipeline.outage.OutageLog;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.port.MessageQueue;
import io.msgx.pipeline.port.PipelineMetrics;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.IdentityBinding;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.store.StoreConflictException;
import io.msgx.pipeline.store.StoreUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Executor;

/**
 * Processes the head of the queue once (seeds §5.2):
 * <ol>
 *   <li>read the raw text and the mailbox status from the mailbox, in one statement: a status that is not accepted →
 *       {@code SKIPPED(status:<value>)} at once, the text neither decoded nor copied, no identity bound (sis-format §10,
 *       D-110); gone → {@code DEAD(MALFORMED, raw-missing)}; the mailbox or our
 *       database unreachable, or our database rolling the work back to break a deadlock →
 *       {@link ProcessOutcome.NotRecorded}: the message stays as it was, no attempt used;</li>
 *   <li>decode: malformed → {@code DEAD(MALFORMED)}, never retried; a codec defect →
 *       {@code FAILED(CODEC_ERROR)};</li>
 *   <li>bind the business identity, its own idempotent statement outside any business transaction: held by
 *       another message → {@code SKIPPED(duplicate-of:<id>)}, or {@code SKIPPED(duplicate-of:<id>:content-differs)}
 *       when its content differs from the holder's (a corrected resend under the same {@code SEQN}, Q15: kept
 *       skipped, but told apart and counted); a retry keeps the binding it has;</li>
 *   <li>an ignore rule matches → {@code SKIPPED(ignored:<rule>)}; a seasonal schedule ({@code SCHS}) →
 *       {@code SKIPPED(seasonal-schedule: ..)};</li>
 *   <li>dispatch by kind: schedules, operations and deletions to {@link FlightProcessor}; reference answers to
 *       {@link ReferenceProcessor}; anything else → {@code FAILED(UNSUPPORTED)} with backoff, its first attempt
 *       logged as an ERROR that names the configuration line which would ignore it.</li>
 * </ol>
 * Every failure is recorded here, once, on the message it belongs to; the pump above only waits.
 */
public final class MessageProcessor {

    private static final Logger log = LoggerFactory.getLogger(MessageProcessor.class);

    private final Mailbox mailbox;
    private final PipelineStore store;
    private final XmlCodec codec;
    private final FlightProcessor flights;
    private final ReferenceProcessor references;
    private final ProcessingSettings settings;
    private final Clock clock;
    private final PipelineMetrics metrics;
    private final OutageLog mailboxOutage;
    private final OutageLog storeOutage;
    private final GroupTexts groupTexts;
    private final UnmappedTally unmapped;
    private final IdentityClaims identities;
    private final MessageTriage triage;
    private final MessageTexts texts;

    /** A processor whose groups read their own texts when they come. */
    public MessageProcessor(Mailbox mailbox, PipelineStore store, XmlCodec codec, FlightProcessor flights,
                            ReferenceProcessor references, ProcessingSettings settings, Clock clock, PipelineMetrics metrics) {
        this(mailbox, store, codec, flights, references, settings, clock, metrics,
                GroupTexts.readingNow(mailbox, codec, settings.acceptedStatuses()::accepts));
    }

    /**
     * A processor that, while a full group is applied, reads and decodes the texts of the next one on
     * {@code readAhead} (D-51). The executor is the caller's to stop; a read-ahead it refuses is simply not made.
     */
    public MessageProcessor(Mailbox mailbox, PipelineStore store, XmlCodec codec, FlightProcessor flights,
                            ReferenceProcessor references, ProcessingSettings settings, Clock clock, PipelineMetrics metrics,
                            Executor readAhead) {
        this(mailbox, store, codec, flights, references, settings, clock, metrics,
                GroupTexts.readingAhead(mailbox, codec, settings.acceptedStatuses()::accepts, readAhead));
    }

    private MessageProcessor(Mailbox mailbox, PipelineStore store, XmlCodec codec, FlightProcessor flights,
                             ReferenceProcessor references, ProcessingSettings settings, Clock clock,
                             PipelineMetrics metrics, GroupTexts groupTexts) {
        this.groupTexts = groupTexts;
        this.mailbox = mailbox;
        this.store = store;
        this.codec = codec;
        this.flights = flights;
        this.references = references;
        this.settings = settings;
        this.clock = clock;
        this.metrics = metrics;
        this.mailboxOutage = new OutageLog(log, "Mailbox", clock);
        this.storeOutage = new OutageLog(log, "Pipeline store", clock);
        this.unmapped = new UnmappedTally(metrics);
        this.identities = new IdentityClaims(store, new SequenceWatch(settings.seqnResetWindow(), metrics),
                settings.identityWithDay(), clock);
        this.triage = new MessageTriage(settings.ignoreRules(), settings.acceptedStatuses());
        this.texts = new MessageTexts(mailbox, store, settings, clock, metrics);
    }

    /** How this processor reports an outage of our store: the pump reports its own store outages through it too. */
    OutageLog storeOutage() {
        return storeOutage;
    }

    /** Process one message alone; every line logged meanwhile carries its ID in the MDC ({@link MessageLogContext}). */
    public ProcessOutcome processOne(ProcRecord head) {
        var started = clock.instant();
        try (var context = MessageLogContext.message(head.msgId())) {
            var outcome = attempt(head);
            metrics.messageProcessed(outcome.timerTag(), Duration.between(started, clock.instant()));
            return outcome;
        }
    }

    private ProcessOutcome attempt(ProcRecord head) {
        try {
            var outcome = process(head);
            mailboxOutage.recovered();
            storeOutage.recovered();
            return outcome;
        } catch (StoreConflictException e) {
            // Not the message's fault and not an outage: the database chose this transaction as a deadlock's victim.
            // Nothing of it committed; the pump takes the same head again on its next tick.
            log.warn("Message {} is not processed now: {}", head.msgId(), e.getMessage());
            return new ProcessOutcome.NotRecorded(head.msgId(), e.getMessage());
        } catch (StoreUnavailableException | MailboxUnavailableException e) {
            // An outage is not the message's fault: no attempt is used and nothing is recorded, so however long the
            // mailbox or our database is away the head neither dies of it nor waits out a backoff once it is back;
            // the pump takes the same head again on its next tick (issue 10).
            (e instanceof MailboxUnavailableException ? mailboxOutage : storeOutage).failed(e.getMessage(),
                    "message " + head.msgId() + " is not processed now: it stays as it was and is taken again when "
                            + "the service answers");
            return new ProcessOutcome.NotRecorded(head.msgId(), e.getMessage());
        } catch (MailboxRowUnreadableException e) {
            // Not an outage: the mailbox answers, this row does not (D-85). The attempt counts, so a row that stays
            // unreadable ends DEAD(EXHAUSTED) after its retries and the queue moves on.
            mailboxOutage.recovered();
            return fail(head, ErrorClass.INFRA, e.getMessage());
        } catch (RuntimeException e) {
            log.error("Message {}: unexpected failure while processing", head.msgId(), e);
            return fail(head, ErrorClass.INTERNAL, e.toString());
        }
    }

    private ProcessOutcome process(ProcRecord head) {
        long msgId = head.msgId();
        var content = mailbox.readContent(msgId);
        var notAMessage = content.flatMap(row -> triage.ofStatus(row.status()));
        if (notAMessage.isPresent()) {
            return skippedForStatus(msgId, content.get().status(), notAMessage.get());
        }
        var raw = texts.withRawCopy(msgId, content.map(MailboxContent::text));
        if (raw.isEmpty()) {
            return end(msgId, MessageEnd.dead(ErrorClass.MALFORMED,
                    "raw-missing: mailbox row " + msgId + " no longer exists"));
        }
        var decoded = codec.decode(raw.get());
        var heldBy = decoded instanceof DecodeResult.Decoded read && head.identityKey() == null
                ? identities.bindAlone(msgId, read.message()) : OptionalLong.empty();
        var outcome = act(head, triage.of(decoded, heldBy), raw.get());
        if (outcome instanceof ProcessOutcome.Ended && decoded instanceof DecodeResult.Decoded read) {
            unmapped.report(msgId, read);
        }
        return outcome;
    }

    /** Do what the triage decided for a message processed alone. */
    private ProcessOutcome act(ProcRecord head, MessageTriage.Verdict verdict, String raw) {
        long msgId = head.msgId();
        return verdict.match(new MessageTriage.Verdict.Cases<>() {
            @Override
            public ProcessOutcome malformed(MessageTriage.Malformed malformed) {
                return end(msgId, MessageEnd.dead(ErrorClass.MALFORMED, malformed.reason()));
            }

            @Override
            public ProcessOutcome codecFailure(MessageTriage.CodecFailure failure) {
                return fail(head, ErrorClass.CODEC_ERROR, failure.reason());
            }

            @Override
            public ProcessOutcome duplicate(MessageTriage.Duplicate duplicate) {
                return end(msgId, texts.duplicateEnd(msgId, raw, duplicate.holder()));
            }

            @Override
            public ProcessOutcome skip(MessageTriage.Skip skip) {
                return end(msgId, MessageEnd.skipped(skip.reason()));
            }

            @Override
            public ProcessOutcome applyFlight(MessageTriage.ApplyFlight flight) {
                return ended(msgId, flights.apply(head, flight.message(), flight.flight()));
            }

            @Override
            public ProcessOutcome applyReference(MessageTriage.ApplyReference reference) {
                return ended(msgId, references.apply(head, reference.meta(), reference.answer()));
            }

            @Override
            public ProcessOutcome unsupported(MessageTriage.Unsupported unsupported) {
                return MessageProcessor.this.unsupported(head, unsupported.meta());
            }
        });
    }

    /** A row whose mailbox status makes it no message ends {@code SKIPPED(status:<value>)}, counted by its status. */
    private ProcessOutcome skippedForStatus(long msgId, String status, MessageTriage.Skip skip) {
        var outcome = end(msgId, MessageEnd.skipped(skip.reason()));
        metrics.statusSkipped(status.strip());
        return outcome;
    }

    // --- groups (decision D-34) ---

    /**
     * Process a run of head messages ({@link MessageQueue#pendingRun}) with as few
     * transactions as possible, with the same outcome as {@link #processOne} on each in turn:
     * <ol>
     *   <li>read every raw text in one query and decode them; the group ends before the first message it cannot
     *       take whole (a missing row, a codec defect, a reference answer, an unsupported type);</li>
     *   <li>bind the identities of the taken messages in one short transaction, in order, so a duplicate inside
     *       the group is held by its original;</li>
     *   <li>apply the flight messages, and end the duplicates, ignored and malformed ones, in one locked
     *       transaction ({@link FlightProcessor#applyGroup}).</li>
     * </ol>
     * When any of that throws, nothing of step 3 was written, and the taken messages are processed one at a time
     * instead, stopping at the first that does not end (it now waits for its retry, and FIFO holds). The messages
     * after the group are left for the next tick. Returns the outcome of every message processed, in order.
     *
     * <p>Lines about the group carry its {@code first..last} IDs in the MDC, lines about one of its messages that
     * message's ID ({@link MessageLogContext}); a message processed alone (no group, or after a group failed) is
     * logged as in {@link #processOne}.
     */
    public List<ProcessOutcome> processGroup(List<ProcRecord> run) {
        if (run.isEmpty()) {
            return List.of();
        }
        List<ProcRecord> taken = List.of();
        try {
            var started = clock.instant();
            var prepared = prepareGroup(run);
            taken = prepared.stream().map(Prepared::head).toList();
            if (run.size() >= settings.groupSize()) {
                // A backlog: the next group is most likely the messages right after this run.
                groupTexts.readAhead(run.get(run.size() - 1).msgId(), settings.groupSize());
            }
            if (taken.size() < 2) {
                return List.of(processOne(run.get(0)));
            }
            try (var group = MessageLogContext.group(taken)) {
                var read = clock.instant();
                var outcomes = applyGroup(prepared);
                var took = Duration.between(started, clock.instant());
                metrics.groupProcessed(outcomes.size(), took);
                var share = took.dividedBy(outcomes.size());
                outcomes.forEach(outcome -> metrics.messageProcessed(outcome.timerTag(), share));
                if (log.isDebugEnabled()) {
                    log.debug("Group of {} message(s) from {}: texts read and decoded in {} ms, identities bound, "
                            + "flights applied and committed in {} ms", taken.size(), taken.get(0).msgId(),
                            Duration.between(started, read).toMillis(), Duration.between(read, clock.instant()).toMillis());
                }
                return outcomes;
            }
        } catch (RuntimeException e) {
            boolean outage = (e instanceof StoreUnavailableException && !(e instanceof StoreConflictException))
                    || e instanceof MailboxUnavailableException;
            var notProcessed = taken.isEmpty() ? run : taken;
            try (var group = MessageLogContext.group(notProcessed)) {
                // An outage is reported once by the message it stops, not by every group it stops.
                (outage ? log.atDebug() : log.atWarn()).log("A group of {} message(s) from {} was not processed ({}); "
                        + "processing them one at a time", notProcessed.size(), run.get(0).msgId(), e.toString());
            }
            return oneByOne(taken.isEmpty() ? run.subList(0, 1) : taken);
        }
    }

    /**
     * A message of a group, read and decoded (or found malformed); or a row that is no message for its mailbox status
     * ({@code notAMessage}, with {@code status}), whose text is not decoded ({@code decoded} null).
     */
    private record Prepared(ProcRecord head, String raw, DecodeResult decoded, String status,
                            MessageTriage.Skip notAMessage) {

        Prepared(ProcRecord head, String raw, DecodeResult decoded) {
            this(head, raw, decoded, null, null);
        }

        /** The decoded message, or null when its text is malformed or not decoded. */
        DecodedMessage message() {
            return decoded instanceof DecodeResult.Decoded read ? read.message() : null;
        }
    }

    /**
     * The group's messages from the first, read and decoded, up to the first that is not {@link MessageTriage#groupable}
     * (or malformed: a malformed message ends in the group); that one and everything after it wait.
     */
    private List<Prepared> prepareGroup(List<ProcRecord> run) {
        var texts = groupTexts.read(run.stream().map(ProcRecord::msgId).toList());
        var prepared = new ArrayList<Prepared>();
        for (var head : run) {
            try (var message = MessageLogContext.message(head.msgId())) {
                var text = texts.get(head.msgId());
                var notAMessage = text == null ? Optional.<MessageTriage.Skip>empty() : triage.ofStatus(text.status());
                if (notAMessage.isPresent()) {
                    prepared.add(new Prepared(head, text.raw(), null, text.status(), notAMessage.get()));
                    continue;
                }
                var raw = this.texts.withRawCopy(head.msgId(), Optional.ofNullable(text).map(GroupTexts.Text::raw));
                if (raw.isEmpty()) {
                    break;
                }
                var decoded = text != null && text.decoded() != null ? text.decoded()
                        : codec.decode(raw.get()); // else: our kept copy
                if (!MessageTriage.groupable(triage.of(decoded, OptionalLong.empty()))) {
                    break;
                }
                prepared.add(new Prepared(head, raw.get(), decoded));
            }
        }
        return prepared;
    }

    private List<ProcessOutcome> applyGroup(List<Prepared> prepared) {
        var bindings = bindIdentities(prepared);
        var work = new ArrayList<FlightProcessor.Work>();
        var decided = new ArrayList<MessageQueue.Ending>();
        for (var item : prepared) {
            long msgId = item.head().msgId();
            if (item.notAMessage() != null) {
                decided.add(new MessageQueue.Ending(msgId, MessageEnd.skipped(item.notAMessage().reason())));
                continue;
            }
            var binding = bindings.get(msgId);
            var verdict = triage.of(item.decoded(),
                    binding == null ? OptionalLong.empty() : IdentityClaims.heldByAnother(msgId, binding));
            var ending = verdict.match(new MessageTriage.Verdict.Cases<MessageEnd>() {
                @Override
                public MessageEnd malformed(MessageTriage.Malformed malformed) {
                    return MessageEnd.dead(ErrorClass.MALFORMED, malformed.reason());
                }

                @Override
                public MessageEnd codecFailure(MessageTriage.CodecFailure failure) {
                    throw notGroupable(msgId, failure);
                }

                @Override
                public MessageEnd duplicate(MessageTriage.Duplicate duplicate) {
                    return texts.duplicateEnd(msgId, item.raw(), duplicate.holder());
                }

                @Override
                public MessageEnd skip(MessageTriage.Skip skip) {
                    return MessageEnd.skipped(skip.reason());
                }

                @Override
                public MessageEnd applyFlight(MessageTriage.ApplyFlight flight) {
                    work.add(new FlightProcessor.Work(item.head(), flight.message(), flight.flight()));
                    return null; // decided by the flight processor, with the group's other flight messages
                }

                @Override
                public MessageEnd applyReference(MessageTriage.ApplyReference reference) {
                    throw notGroupable(msgId, reference);
                }

                @Override
                public MessageEnd unsupported(MessageTriage.Unsupported unsupported) {
                    throw notGroupable(msgId, unsupported);
                }
            });
            if (ending != null) {
                decided.add(new MessageQueue.Ending(msgId, ending));
            }
        }
        var terminals = new LinkedHashMap<Long, MessageEnd>();
        decided.forEach(ending -> terminals.put(ending.msgId(), ending.terminal()));
        terminals.putAll(flights.applyGroup(work, decided));
        var outcomes = new ArrayList<ProcessOutcome>();
        for (var item : prepared) {
            long msgId = item.head().msgId();
            try (var message = MessageLogContext.message(msgId)) {
                outcomes.add(ended(msgId, terminals.get(msgId)));
                if (item.notAMessage() != null) {
                    metrics.statusSkipped(item.status().strip());
                }
                if (item.decoded() instanceof DecodeResult.Decoded read) {
                    unmapped.report(msgId, read);
                }
            }
        }
        return outcomes;
    }

    private static IllegalStateException notGroupable(long msgId, MessageTriage.Verdict verdict) {
        return new IllegalStateException("message " + msgId + " is in a group but goes " + verdict);
    }

    private Map<Long, IdentityBinding> bindIdentities(List<Prepared> prepared) {
        return identities.bindAll(prepared.stream().filter(p -> p.message() != null && p.head().identityKey() == null)
                .map(p -> identities.claim(p.head().msgId(), p.message())).toList());
    }

    private List<ProcessOutcome> oneByOne(List<ProcRecord> heads) {
        var outcomes = new ArrayList<ProcessOutcome>();
        for (var head : heads) {
            var outcome = processOne(head);
            outcomes.add(outcome);
            if (!(outcome instanceof ProcessOutcome.Ended)) {
                break;
            }
        }
        return outcomes;
    }

    /** A kind no processor handles: {@code FAILED(UNSUPPORTED)}, said loudly on the first attempt with the remedy. */
    private ProcessOutcome unsupported(ProcRecord head, MessageMeta meta) {
        var kind = meta.kind();
        if (head.attempts() == 0) {
            var remedy = settings.ignoreRules().withRule(meta.type(), meta.subtype())
                    .map(list -> "ignore it with the configuration line  " + IgnoreRules.KEY + ": " + list
                            + "  (environment: " + IgnoreRules.ENVIRONMENT_VARIABLE + "=" + list + "), or end this "
                            + "message now with the CLI's skip command")
                    .orElse("end this message with the CLI's skip command (no ignore rule can name this TYPE)");
            log.error("Message {}: {} is a kind no processor handles. It holds the FIFO head: every message after it "
                    + "waits while it is retried with backoff ({} attempts), then it ends DEAD(EXHAUSTED). If this "
                    + "traffic is expected and carries nothing to process, {}", head.msgId(), kind,
                    settings.retry().maxAttempts(), remedy);
        }
        return fail(head, ErrorClass.UNSUPPORTED, "no processor handles " + kind);
    }

    private ProcessOutcome end(long msgId, MessageEnd terminal) {
        if (!store.queue().finish(msgId, terminal, clock.instant())) {
            var now = store.queue().find(msgId).map(r -> r.status().name()).orElse("no record");
            log.warn("Message {}: wanted to end it {} ({}), but it is no longer open ({})", msgId, terminal.status(),
                    terminal.reason(), now);
        }
        return ended(msgId, terminal);
    }

    private ProcessOutcome ended(long msgId, MessageEnd terminal) {
        metrics.messageEnded(terminal.status(), terminal.errorClass());
        if (terminal.status() == ProcStatus.SUCCEEDED) {
            int owed = BatchOutcome.owedFlights(terminal.reason()).size();
            if (owed > 0) {
                metrics.operationsOnUnknownFlights(owed);
            }
        }
        log.info("Message {} {}{}: {}", msgId, terminal.status(),
                terminal.errorClass() == null ? "" : "(" + terminal.errorClass() + ")", terminal.reason());
        return new ProcessOutcome.Ended(msgId, terminal);
    }

    private ProcessOutcome fail(ProcRecord head, ErrorClass errorClass, String error) {
        int attempts = head.attempts() + 1;
        var now = clock.instant();
        var next = settings.retry().nextAttemptAt(attempts, now);
        try {
            store.queue().recordFailure(head.msgId(), errorClass, error, next, now);
        } catch (RuntimeException e) {
            log.warn("Message {}: attempt {} failed ({}: {}) and the failure could not be recorded: {}",
                    head.msgId(), attempts, errorClass, error, e.getMessage());
            return new ProcessOutcome.NotRecorded(head.msgId(), e.getMessage());
        }
        metrics.attemptFailed(errorClass);
        log.warn("Message {}: attempt {}/{} failed with {}: {}; {}", head.msgId(), attempts,
                settings.retry().maxAttempts(), errorClass, error,
                settings.retry().exhausted(attempts) ? "attempts used up, it ends DEAD(EXHAUSTED)" : "next try at " + next);
        return new ProcessOutcome.Failed(head.msgId(), errorClass, error, attempts, next);
    }
}
