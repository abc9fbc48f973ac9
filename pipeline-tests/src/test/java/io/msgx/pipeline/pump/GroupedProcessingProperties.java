package io.msgx.pipeline.pump;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.pipeline.inbox.InboxSettings;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.record.OutboxEntry;
import io.msgx.pipeline.record.OutboxTarget;
import io.msgx.pipeline.testing.FailingBeforeCommitStore;
import io.msgx.pipeline.testing.PipelineHarness;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.pipeline.testing.SisMessages;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.pipeline.testing.SisMessages.patch;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Grouping head messages into one transaction (D-34) is invisible: whatever the traffic and the group size, every
 * message ends as it ends alone, the flights are the same, the outbox holds the same notifications in the same
 * order and the same latest projection of each flight — also when groups fail before their commit and are redone
 * one message at a time.
 */
class GroupedProcessingProperties {

    /** One step of traffic, turned into a mailbox text by {@link #xmlOf}. */
    record Step(int kind, int flid, int value) {
    }

    @Provide
    Arbitrary<List<Step>> traffic() {
        var step = Combinators.combine(Arbitraries.integers().between(0, 10), Arbitraries.integers().between(1, 6),
                Arbitraries.integers().between(1, 40)).as(Step::new);
        return step.list().ofMinSize(1).ofMaxSize(60);
    }

    /** Flight cache sizes (D-39): off, smaller than the six FLIDs of the traffic (evicting), and roomy. */
    @Provide
    Arbitrary<Integer> cacheSizes() {
        return Arbitraries.of(0, 1, 3, FlightCache.DEFAULT_CAPACITY);
    }

    /** With and without the read-ahead of the next group's texts on another thread (D-51). */
    @Property(tries = 150, edgeCases = EdgeCasesMode.MIXIN)
    void a_group_ends_every_message_as_it_ends_alone(@ForAll("traffic") List<Step> traffic,
                                                      @ForAll @IntRange(min = 2, max = 40) int groupSize,
                                                      @ForAll("cacheSizes") int cacheSize,
                                                      @ForAll boolean readAhead) {
        var alone = run(traffic, 1, 0, 0, false);
        var grouped = run(traffic, groupSize, 0, cacheSize, readAhead);

        assertThat(grouped.records()).isEqualTo(alone.records());
        assertThat(grouped.flights()).isEqualTo(alone.flights());
        assertThat(grouped.events()).isEqualTo(alone.events());
    }

    @Property(tries = 80, edgeCases = EdgeCasesMode.MIXIN)
    void a_group_that_fails_before_its_commit_is_redone_one_by_one_with_the_same_result(
            @ForAll("traffic") List<Step> traffic, @ForAll @IntRange(min = 2, max = 40) int groupSize,
            @ForAll @IntRange(min = 1, max = 3) int failures, @ForAll("cacheSizes") int cacheSize,
            @ForAll boolean readAhead) {
        var alone = run(traffic, 1, 0, 0, false);
        var grouped = run(traffic, groupSize, failures, cacheSize, readAhead);

        assertThat(grouped.flights()).isEqualTo(alone.flights());
        assertThat(grouped.events()).isEqualTo(alone.events());
        assertThat(grouped.records()).extracting(Result.Ending::msgId, Result.Ending::status)
                .isEqualTo(alone.records().stream().map(e -> org.assertj.core.groups.Tuple.tuple(e.msgId(), e.status())).toList());
    }

    /**
     * A group that committed although its caller was told the connection was lost (an unknown outcome) is
     * recognised message by message as already ended; the flights it wrote are read afresh, whatever the cache
     * remembered of them before.
     */
    @Property(tries = 80, edgeCases = EdgeCasesMode.MIXIN)
    void a_group_whose_commit_was_lost_to_the_caller_changes_nothing_of_the_outcome(
            @ForAll("traffic") List<Step> traffic, @ForAll @IntRange(min = 2, max = 40) int groupSize,
            @ForAll @IntRange(min = 1, max = 3) int lostCommits, @ForAll("cacheSizes") int cacheSize) {
        var alone = run(traffic, 1, 0, 0, false);
        var grouped = run(traffic, groupSize, -lostCommits, cacheSize, false);

        assertThat(grouped.records()).isEqualTo(alone.records());
        assertThat(grouped.flights()).isEqualTo(alone.flights());
        assertThat(grouped.events()).isEqualTo(alone.events());
    }

    /** What a run leaves: how each message ended, the flights, and the outbox in EVENT_ID order. */
    record Result(List<Ending> records, List<?> flights, List<Event> events) {
        record Ending(long msgId, Object status, String reason) {
        }

        record Event(String target, String flid, long version, long msgId, String payload) {
        }
    }

    /**
     * {@code failures} below 0: that many locked transactions commit and are reported lost instead. With
     * {@code readAhead}, the next group's texts are read on a thread of their own, as the runner does.
     */
    private Result run(List<Step> traffic, int groupSize, int failures, int cacheSize, boolean readAhead) {
        var executor = readAhead ? Executors.newSingleThreadExecutor() : null;
        try {
            return run(traffic, groupSize, failures, cacheSize, executor);
        } finally {
            if (executor != null) {
                executor.shutdownNow();
            }
        }
    }

    private Result run(List<Step> traffic, int groupSize, int failures, int cacheSize, Executor readAhead) {
        var mailbox = new InMemoryMailbox();
        var memory = H2TestStore.fresh();
        var store = new FailingBeforeCommitStore(memory);
        var clock = SettableClock.atExampleDay();
        var sis = new SisMessages();
        var written = new ArrayList<String>();
        for (var step : traffic) {
            mailbox.appendInbound(xmlOf(step, sis, written), clock.instant());
        }
        var pipeline = new PipelineHarness(mailbox, store, clock, InboxSettings.defaults(),
                ProcessingSettings.defaults().withGroupSize(groupSize).withFlightCacheSize(cacheSize), readAhead);
        if (failures >= 0) {
            store.failNext(failures);
        } else {
            store.loseNextCommits(-failures);
        }
        int round = 0;
        do {
            pipeline.runUntilQuiet();
            clock.tick(Duration.ofMinutes(15));       // past any retry backoff of an injected failure
        } while (++round < 500 && memory.allRecords().stream().anyMatch(r -> r.status().isOpen()));
        var records = memory.allRecords().stream()
                .map(r -> new Result.Ending(r.msgId(), r.status(), r.lastError())).toList();
        assertThat(records).as("every message was taken and ended").hasSize(traffic.size())
                .noneMatch(e -> ((io.msgx.pipeline.record.ProcStatus) e.status()).isOpen());
        // Notifications in EVENT_ID order (what consumers of the msg topic see, per FLID and overall); projections
        // by FLID: one latest row each, whose EVENT_ID relative to notifications is not observable on Kafka.
        var events = memory.allEvents().stream()
                .sorted(java.util.Comparator.comparing((OutboxEntry e) -> e.event().target().code())
                        .thenComparing(e -> e.event().target() == OutboxTarget.KAFKA_MSG ? "" : e.event().partitionKey().value())
                        .thenComparingLong(OutboxEntry::eventId))
                .map(e -> new Result.Event(e.event().target().code(), e.event().partitionKey().value(),
                        e.event().stateVersion(), e.event().msgId(), withoutTimes(e.event().payload())))
                .toList();
        var flights = memory.allFlights().stream()
                .sorted(java.util.Comparator.comparing(io.msgx.domain.flight.FlightState::flid)).toList();
        return new Result(records, flights, events);
    }

    /** Projections carry the commit time; a retried message commits later, so times are not compared. */
    private static String withoutTimes(String payload) {
        return payload == null ? null : payload.replaceAll("\"updatedAt\":\"[^\"]*\"", "\"updatedAt\":_");
    }

    private static String xmlOf(Step step, SisMessages sis, List<String> written) {
        var flid = Integer.toString(1000 + step.flid());
        var xml = switch (step.kind()) {
            case 0, 1 -> sis.schedule(fltr(flid, "11MAR24" + hhmm(step.value()), "STND", "S" + step.value()));
            case 2 -> sis.schedule(fltr(flid, "12MAR240900"), fltr(Integer.toString(1000 + (step.flid() % 6) + 1), "11MAR241000"));
            case 3, 4 -> sis.flop(FlopSubtype.STND, flid, patch("STND", "F" + step.value()));
            case 5 -> sis.fdel(flid);
            case 6 -> sis.schedule(fltr(flid, "11MAR241200", "MAID", Integer.toString(1000 + (step.value() % 6) + 1),
                    "CSOP", "MU", "CSFT", "MU" + step.value()));
            case 7 -> written.isEmpty() ? sis.other("LDM", "RESP") : written.get(step.value() % written.size());
            case 8 -> "<MSG><META><SNDR>AODB</SNDR>" + step.value();
            case 9 -> sis.other("LDM", "RESP");
            default -> sis.other("XYZ", "NONE");             // unsupported: fails alone, with its retries
        };
        written.add(xml);
        return xml;
    }

    private static String hhmm(int value) {
        return String.format("%02d%02d", 6 + value % 12, value % 60);
    }
}
