package io.msgx.pipeline.pump;

import io.msgx.adapter.oracle.H2TestStore;
import io.msgx.domain.engine.EngineSettings;
import io.msgx.domain.engine.FlightStateEngine;
import io.msgx.domain.message.FlightMessage;
import io.msgx.domain.message.FlopSubtype;
import io.msgx.pipeline.codec.DecodeResult;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.codec.MessageMeta;
import io.msgx.pipeline.codec.Peek;
import io.msgx.pipeline.codec.ReferenceAnswer;
import io.msgx.pipeline.codec.XmlCodec;
import io.msgx.pipeline.inbox.InboxPoller;
import io.msgx.pipeline.inbox.InboxSettings;
import io.msgx.pipeline.mailbox.InMemoryMailbox;
import io.msgx.pipeline.port.PipelineMetrics;
import io.msgx.pipeline.record.ErrorClass;
import io.msgx.pipeline.record.ProcRecord;
import io.msgx.pipeline.record.ProcStatus;
import io.msgx.pipeline.testing.FailingBeforeCommitStore;
import io.msgx.pipeline.testing.SettableClock;
import io.msgx.pipeline.testing.SisMessages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.msgx.pipeline.testing.SisMessages.fltr;
import static io.msgx.pipeline.testing.SisMessages.patch;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the pipeline does with traffic it does not apply: seasonal schedules are skipped with their own reason,
 * an unsupported kind holds the head and the head's gauge says so, and what a message carried that the model does
 * not map is counted once the message ends. Over the in-memory mailbox and the H2 test store, alone and in groups.
 */
class TrafficTriageTest {

    private final InMemoryMailbox mailbox = new InMemoryMailbox();
    private final FailingBeforeCommitStore store = new FailingBeforeCommitStore(H2TestStore.fresh());
    private final SettableClock clock = SettableClock.atExampleDay();
    private final SisMessages sis = new SisMessages();
    private final RecordingMetrics metrics = new RecordingMetrics();
    /** Paths the codec stand-in reports as unmapped, by the TYPE of the message. */
    private final Map<String, List<String>> unmappedByType = Map.of("FLOP", List.of("FLOP/XTRA", "FLOP/GTDT/@XTRA"));

    @ParameterizedTest(name = "group size {0}")
    @ValueSource(ints = {1, 300})
    void a_seasonal_schedule_is_skipped_with_its_own_reason_and_holds_nothing_behind_it(int groupSize) {
        var pipeline = pipeline(groupSize);
        long before = mailbox.appendInbound(sis.schedule(fltr("1", "11MAR240835")), null);
        long dnld = mailbox.appendInbound(season("DNLD"), null);
        long resp = mailbox.appendInbound(season("RESP"), null);
        long after = mailbox.appendInbound(sis.schedule(fltr("2", "11MAR240900")), null);

        pipeline.runUntilQuiet();

        for (long id : List.of(dnld, resp)) {
            assertThat(record(id).status()).isEqualTo(ProcStatus.SKIPPED);
            assertThat(record(id).lastError()).startsWith("seasonal-schedule: SCHS-")
                    .contains("names no flight instance");
        }
        assertThat(record(before).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(record(after).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(metrics.heads).doesNotContain(HeadBlock.UNSUPPORTED, HeadBlock.BACKOFF);
    }

    @Test
    void an_ignore_rule_for_schs_still_wins_over_the_seasonal_skip() {
        var settings = new ProcessingSettings(ProcessingSettings.defaults().retry(), IgnoreRules.of(List.of("SCHS-*")),
                false, false, 1);
        var pipeline = new Wiring(settings);
        long id = mailbox.appendInbound(season("DNLD"), null);
        pipeline.runUntilQuiet();
        assertThat(record(id).lastError()).isEqualTo("ignored:SCHS-*");
    }

    @Test
    void an_unsupported_head_is_reported_as_blocked_until_it_ends_then_not() {
        var pipeline = pipeline(300);
        long unknown = mailbox.appendInbound(sis.other("WXYZ", "UPD"), null);
        mailbox.appendInbound(sis.schedule(fltr("3", "11MAR240835")), null);

        pipeline.runUntilQuiet();
        assertThat(record(unknown).errorClass()).isEqualTo(ErrorClass.UNSUPPORTED);
        assertThat(metrics.lastHead()).isEqualTo(HeadBlock.UNSUPPORTED);

        pipeline.runUntilQuiet();
        assertThat(metrics.lastHead()).as("still waiting for its retry").isEqualTo(HeadBlock.UNSUPPORTED);

        for (var wait : List.of(Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofMinutes(2), Duration.ofMinutes(10))) {
            clock.tick(wait);
            pipeline.runUntilQuiet();
        }
        assertThat(record(unknown).status()).isEqualTo(ProcStatus.DEAD);
        assertThat(metrics.lastHead()).isEqualTo(HeadBlock.NOT_BLOCKED);
    }

    @Test
    void the_rule_that_would_ignore_a_kind_keeps_the_configured_ones() {
        assertThat(IgnoreRules.baseline().withRule("WXYZ", "upd")).contains("LDM-*,REGN-*,RSTA-*,EROR-*,WXYZ-UPD");
        assertThat(IgnoreRules.baseline().withRule("-39", "EGST")).as("no rule can name a TYPE holding '-'").isEmpty();
        assertThat(IgnoreRules.baseline().withRule("A-B", "C")).isEmpty();
    }

    @ParameterizedTest(name = "group size {0}")
    @ValueSource(ints = {1, 300})
    void unmapped_paths_are_counted_once_for_each_message_that_ends(int groupSize) {
        var pipeline = pipeline(groupSize);
        mailbox.appendInbound(sis.schedule(fltr("4", "11MAR240835")), null);
        mailbox.appendInbound(sis.flop(FlopSubtype.STND, "4", patch("STND", "12")), null);
        mailbox.appendInbound(sis.flop(FlopSubtype.STND, "4", patch("STND", "13")), null);

        pipeline.runUntilQuiet();

        assertThat(metrics.unmapped).containsExactly(
                "FLOP-STND FLOP/XTRA", "FLOP-STND FLOP/GTDT/@XTRA",
                "FLOP-STND FLOP/XTRA", "FLOP-STND FLOP/GTDT/@XTRA");
    }

    @Test
    void a_failed_attempt_counts_nothing_and_the_attempt_that_ends_the_message_counts_once() {
        var pipeline = pipeline(1);
        mailbox.appendInbound(sis.schedule(fltr("5", "11MAR240835")), null);
        long operation = mailbox.appendInbound(sis.flop(FlopSubtype.STND, "5", patch("STND", "12")), null);
        pipeline.runUntilQuiet();
        store.failNext(1);
        mailbox.appendInbound(sis.flop(FlopSubtype.STND, "5", patch("STND", "14")), null);

        pipeline.runUntilQuiet();
        assertThat(record(operation).status()).isEqualTo(ProcStatus.SUCCEEDED);
        assertThat(metrics.unmapped).as("the failed attempt counted nothing").hasSize(2);

        clock.tick(Duration.ofSeconds(5));
        pipeline.runUntilQuiet();
        assertThat(metrics.unmapped).hasSize(4);
    }

    private Wiring pipeline(int groupSize) {
        return new Wiring(ProcessingSettings.defaults().withGroupSize(groupSize));
    }

    private String season(String styp) {
        return sis.other("SCHS", styp).replace("<SCHS/>", "<SCHS><SNAM>S24</SNAM><SDAT>31MAR24</SDAT><EDAT>26OCT24</EDAT>"
                + "<RECS>1</RECS><FLTR><ALCD>CA</ALCD><FLNO>CA1405</FLNO><MVIN>D</MVIN><DYOP>1234567</DYOP></FLTR></SCHS>");
    }

    private ProcRecord record(long id) {
        return store.queue().find(id).orElseThrow();
    }

    /** The pipeline wired with the recording metrics and a codec that reports unmapped paths for FLOPs. */
    private final class Wiring {
        private final InboxPoller poller;
        private final Pump pump;

        Wiring(ProcessingSettings settings) {
            var codec = new UnmappedReporting();
            var engine = new FlightStateEngine(EngineSettings.defaults());
            var flights = new FlightProcessor(store, engine, clock, null, FlightCache.holding(settings.flightCacheSize()));
            var processor = new MessageProcessor(mailbox, store, codec, flights, new ReferenceProcessor(store, clock),
                    settings, clock, metrics);
            poller = new InboxPoller(mailbox, store, clock, InboxSettings.defaults(), metrics);
            pump = new Pump(store, processor, settings.retry(), settings.groupSize(), clock, metrics);
        }

        void runUntilQuiet() {
            for (int i = 0; i < 1_000; i++) {
                poller.pollOnce();
                var result = pump.tick();
                if (!(result instanceof TickResult.Processed) && !(result instanceof TickResult.Exhausted)) {
                    return;
                }
            }
            throw new AssertionError("not quiet after 1000 ticks");
        }
    }

    /** The real codec, with made-up unmapped paths added to what it decodes. */
    private final class UnmappedReporting implements XmlCodec {
        final JacksonXmlCodec real = new JacksonXmlCodec();

        @Override
        public DecodeResult decode(String xml) {
            var result = real.decode(xml);
            if (result instanceof DecodeResult.Decoded decoded) {
                return new DecodeResult.Decoded(decoded.message(),
                        unmappedByType.getOrDefault(decoded.message().meta().type(), List.of()));
            }
            return result;
        }

        @Override
        public Peek peek(String xml) {
            return real.peek(xml);
        }

        @Override
        public String encode(MessageMeta meta, FlightMessage message) {
            return real.encode(meta, message);
        }

        @Override
        public String encode(MessageMeta meta, ReferenceAnswer answer) {
            return real.encode(meta, answer);
        }
    }

    private static final class RecordingMetrics implements PipelineMetrics {
        final List<String> unmapped = new ArrayList<>();
        final List<HeadBlock> heads = new ArrayList<>();

        @Override
        public void unmappedRead(String kind, String path) {
            unmapped.add(kind + " " + path);
        }

        @Override
        public void fifoHead(HeadBlock block) {
            heads.add(block);
        }

        HeadBlock lastHead() {
            return heads.get(heads.size() - 1);
        }
    }
}
