package io.msgx.pipeline.hostile;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.domain.flight.FlightId;
import io.msgx.domain.flight.FlightState;
import io.msgx.pipeline.inbox.InboxSettings;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.pump.ProcessOutcome;
import io.msgx.pipeline.pump.ProcessingSettings;
import io.msgx.pipeline.pump.TickResult;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.MessageEnd;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongPredicate;

/**
 * One batch of messages through the whole pipeline as the runner wires it (in-memory mailbox → poller → pump →
 * processors → store), driven to the end: whenever the head waits for a retry the {@link SettableClock} is moved
 * to that moment, so a message that keeps failing is driven to {@code DEAD(EXHAUSTED)} rather than left waiting.
 * Then {@link #check} lists every broken promise:
 * <ul>
 *   <li>every message ends terminal ({@code SUCCEEDED}, {@code SKIPPED} or {@code DEAD}) with a reason; a
 *       {@code DEAD} one has an error class; {@code MALFORMED} and {@code PROTOCOL} were never retried;</li>
 *   <li>the only failed attempts are {@code UNSUPPORTED} (an unknown type): a {@code CODEC_ERROR},
 *       {@code INTERNAL} or {@code INFRA} failure is a defect of ours (the in-memory mailbox and the H2 store do not fail), and so is a failure that
 *       could not be recorded;</li>
 *   <li>FIFO: messages end in mailbox order, each once, and the valid canary at the end of the batch ends
 *       {@code SUCCEEDED} — no bad message stalls the queue;</li>
 *   <li>what a processing outcome said is what is recorded;</li>
 *   <li>the flight state: per flight the notifications' {@code stateVersion} only goes up, the flight's version is
 *       its last notification's, the messages behind the flight's last change and behind every notification
 *       succeeded, and no skipped or dead message wrote anything.</li>
 * </ul>
 */
final class PipelineBatch {

    /** A message of the batch: a mutant, or a valid message (opening, canary) when {@code mutant} is null. */
    record Item(String xml, XmlMutator.Mutant mutant) {
    }

    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final H2TestStore store = H2TestStore.fresh();
    private final SettableClock clock = SettableClock.atExampleDay();
    private final PipelineHarness pipeline;
    private final Map<Long, Item> items = new LinkedHashMap<>();
    private final List<TickResult> ticks = new ArrayList<>();
    private long canaryId = -1;

    PipelineBatch(int groupSize) {
        this.pipeline = new PipelineHarness(mailbox, store, clock, InboxSettings.defaults(),
                ProcessingSettings.defaults().withGroupSize(groupSize));
    }

    long append(Item item) {
        long id = mailbox.appendInbound(item.xml(), null);
        items.put(id, item);
        return id;
    }

    /** The last message: valid, new, and expected to succeed whatever came before it. */
    void appendCanary(String xml) {
        canaryId = append(new Item(xml, null));
    }

    /** Poll and tick until nothing is open, moving the clock to each retry; bounded so a stall cannot spin. */
    void runToTheEnd() {
        int rounds = 6 * items.size() + 20;
        for (int round = 0; round < rounds; round++) {
            var results = pipeline.runUntilQuiet();
            ticks.addAll(results);
            var last = results.get(results.size() - 1);
            if (last instanceof TickResult.Idle) {
                return;
            }
            if (last instanceof TickResult.WaitingForRetry waiting) {
                clock.set(waiting.until());
                continue;
            }
            throw new AssertionError("the pipeline stopped with " + last + " although neither the in-memory mailbox nor the H2 store fails");
        }
        throw new AssertionError("the pipeline was still busy after " + rounds + " rounds for " + items.size() + " messages");
    }

    Map<Long, Item> items() {
        return items;
    }

    ProcRecord record(long msgId) {
        return store.queue().find(msgId).orElse(null);
    }

    H2TestStore store() {
        return store;
    }

    /** The outcome label of a message for the tally: {@code DEAD(MALFORMED)}, {@code SKIPPED(no-match)}, ... */
    String label(long msgId) {
        var record = record(msgId);
        if (record == null) {
            return "NO RECORD";
        }
        return switch (record.status()) {
            case DEAD -> "DEAD(" + record.errorClass() + ")";
            case SKIPPED -> "SKIPPED(" + record.lastError().replaceFirst("(?s):.*", "") + ")";
            default -> record.status().name();
        };
    }

    /** Every broken promise, each naming its message; empty when the batch is sound. */
    List<String> check() {
        var problems = new ArrayList<String>();
        var records = new HashMap<Long, ProcRecord>();
        store.allRecords().forEach(r -> records.put(r.msgId(), r));
        checkEndings(records, problems);
        checkFailures(problems);
        checkFifo(problems);
        checkFlights(records, problems);
        return problems;
    }

    private void checkEndings(Map<Long, ProcRecord> records, List<String> problems) {
        for (long id : items.keySet()) {
            var record = records.get(id);
            if (record == null) {
                problems.add("message " + id + " has no processing record: it was lost");
                continue;
            }
            if (!record.status().isTerminal()) {
                problems.add("message " + id + " did not end: " + record);
                continue;
            }
            if (record.lastError() == null || record.lastError().isBlank()) {
                problems.add("message " + id + " ended " + record.status() + " without a reason");
            }
            if (record.status() == ProcStatus.DEAD && record.errorClass() == null) {
                problems.add("message " + id + " is DEAD without an error class");
            }
            if ((record.errorClass() == ErrorClass.MALFORMED || record.errorClass() == ErrorClass.PROTOCOL)
                    && record.attempts() != 0) {
                problems.add("message " + id + " is " + record.errorClass() + " but was retried " + record.attempts() + " times");
            }
            if (record.errorClass() == ErrorClass.EXHAUSTED && !record.lastError().contains("no processor handles")) {
                problems.add("message " + id + " used up its attempts on something other than an unknown type: "
                        + record.lastError());
            }
        }
        if (canaryId > 0 && records.containsKey(canaryId) && records.get(canaryId).status() != ProcStatus.SUCCEEDED) {
            problems.add("the valid canary " + canaryId + " at the end did not succeed: " + records.get(canaryId));
        }
    }

    private void checkFailures(List<String> problems) {
        for (var outcome : outcomes()) {
            if (outcome instanceof ProcessOutcome.Failed failed && failed.errorClass() != ErrorClass.UNSUPPORTED) {
                problems.add("message " + failed.msgId() + " failed with " + failed.errorClass() + ": " + failed.error());
            }
            if (outcome instanceof ProcessOutcome.NotRecorded notRecorded) {
                problems.add("message " + notRecorded.msgId() + " failed and the failure was not recorded: "
                        + notRecorded.reason());
            }
            if (outcome instanceof ProcessOutcome.Ended ended) {
                var record = record(ended.msgId());
                MessageEnd terminal = ended.terminal();
                if (record == null || record.status() != terminal.status() || record.errorClass() != terminal.errorClass()
                        || !terminal.reason().startsWith(record.lastError())) {
                    problems.add("message " + ended.msgId() + " ended " + terminal + " but the record says " + record);
                }
            }
        }
    }

    /** Each message ends once, in mailbox order; attempts never touch a message behind an open one. */
    private void checkFifo(List<String> problems) {
        var ended = new ArrayList<Long>();
        long lastTouched = 0;
        for (var tick : ticks) {
            var touched = new ArrayList<Long>();
            if (tick instanceof TickResult.Processed processed) {
                for (var outcome : processed.outcomes()) {
                    touched.add(outcome.msgId());
                    if (outcome instanceof ProcessOutcome.Ended) {
                        ended.add(outcome.msgId());
                    }
                }
            } else if (tick instanceof TickResult.Exhausted exhausted) {
                touched.add(exhausted.msgId());
                ended.add(exhausted.msgId());
            }
            for (long id : touched) {
                if (id < lastTouched) {
                    problems.add("message " + id + " was processed after message " + lastTouched + ": FIFO broken");
                }
                lastTouched = id;
            }
        }
        var expected = new ArrayList<>(items.keySet());
        if (!ended.equals(expected)) {
            problems.add("messages ended in the order " + abbreviate(ended) + ", not once each in mailbox order "
                    + abbreviate(expected));
        }
    }

    private void checkFlights(Map<Long, ProcRecord> records, List<String> problems) {
        var succeeded = (LongPredicate) id -> records.containsKey(id)
                && records.get(id).status() == ProcStatus.SUCCEEDED;
        var lastVersion = new HashMap<FlightId, Long>();
        var lastMsg = new HashMap<FlightId, Long>();
        for (OutboxEntry entry : store.allEvents()) {
            var event = entry.event();
            if (!succeeded.test(event.msgId())) {
                problems.add("event " + entry.eventId() + " was written by message " + event.msgId()
                        + ", which did not succeed: " + records.get(event.msgId()));
            }
            if (event.target() != OutboxTarget.KAFKA_MSG) {
                continue;
            }
            var flid = event.partitionKey();
            var previous = lastVersion.put(flid, event.stateVersion());
            if (previous != null && event.stateVersion() <= previous) {
                problems.add("flight " + flid.value() + ": stateVersion went from " + previous + " to "
                        + event.stateVersion() + " (event " + entry.eventId() + ")");
            }
            var previousMsg = lastMsg.put(flid, event.msgId());
            if (previousMsg != null && event.msgId() < previousMsg) {
                problems.add("flight " + flid.value() + ": message " + event.msgId() + " notified after " + previousMsg);
            }
        }
        for (var flight : store.allFlights()) {
            if (!succeeded.test(flight.lastMsgId())) {
                problems.add("flight " + flight.flid().value() + " was last changed by message " + flight.lastMsgId()
                        + ", which did not succeed");
            }
            var notified = lastVersion.get(flight.flid());
            if (notified == null || notified != flight.stateVersion()) {
                problems.add("flight " + flight.flid().value() + " is at version " + flight.stateVersion()
                        + " but its last notification carries " + notified);
            }
        }
    }

    /** Where this batch and the same messages run another way ended differently; empty when they agree. */
    List<String> differencesFrom(PipelineBatch other) {
        var differences = new ArrayList<String>();
        for (long id : items.keySet()) {
            var mine = record(id);
            var theirs = other.record(id);
            // a malformed message's reason may name either of two faults (see CodecFuzzTest.sameAnswer)
            boolean sameReason = Objects.equals(mine == null ? null : mine.lastError(), theirs == null ? null : theirs.lastError())
                    || mine != null && mine.errorClass() == ErrorClass.MALFORMED;
            if (mine == null || theirs == null || mine.status() != theirs.status() || mine.errorClass() != theirs.errorClass()
                    || !sameReason) {
                differences.add("message " + id + " ended " + describe(mine) + " one way and " + describe(theirs)
                        + " the other");
            }
        }
        var flights = new HashMap<FlightId, FlightState>();
        store.allFlights().forEach(f -> flights.put(f.flid(), f));
        for (var flight : other.store.allFlights()) {
            if (!flight.equals(flights.remove(flight.flid()))) {
                differences.add("flight " + flight.flid().value() + " differs: " + flight + " vs " + flights.get(flight.flid()));
            }
        }
        flights.keySet().forEach(flid -> differences.add("flight " + flid.value() + " exists only one way"));
        return differences;
    }

    private static String describe(ProcRecord record) {
        return record == null ? "without a record"
                : record.status() + (record.errorClass() == null ? "" : "(" + record.errorClass() + ")") + " '" + record.lastError() + "'";
    }

    private List<ProcessOutcome> outcomes() {
        return ticks.stream().filter(TickResult.Processed.class::isInstance).map(TickResult.Processed.class::cast)
                .flatMap(p -> p.outcomes().stream()).toList();
    }

    /** The mutants behind the message IDs a problem names, described for the failure report. */
    List<String> mutantsNamedIn(List<String> problems, int limit, long baseSeed) {
        var named = new ArrayList<String>();
        for (var entry : items.entrySet()) {
            if (entry.getValue().mutant() != null && named.size() < limit
                    && problems.stream().anyMatch(p -> p.matches("(?s).*\\b" + entry.getKey() + "\\b.*"))) {
                named.add("message " + entry.getKey() + " is " + entry.getValue().mutant().describe(baseSeed));
            }
        }
        return named;
    }

    private static String abbreviate(List<Long> ids) {
        return ids.size() <= 20 ? ids.toString() : ids.subList(0, 20) + "... (" + ids.size() + ")";
    }
}
