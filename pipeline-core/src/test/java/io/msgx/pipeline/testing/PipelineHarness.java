package io.msgx.pipeline.testing;

import io.msgx.domain.engine.EngineSettings;
import io.msgx.domain.engine.FlightStateEngine;
import io.msgx.pipeline.codec.JacksonXmlCodec;
import io.msgx.pipeline.inbox.InboxPoller;
import io.msgx.pipeline.inbox.InboxSettings;
import io.msgx.pipeline.port.Mailbox;
import io.msgx.pipeline.port.PipelineMetrics;
import io.msgx.pipeline.port.PipelineStore;
import io.msgx.pipeline.pump.FlightCache;
import io.msgx.pipeline.pump.FlightProcessor;
import io.msgx.pipeline.pump.MessageProcessor;
import io.msgx.pipeline.pump.ProcessingSettings;
import io.msgx.pipeline.pump.Pump;
import io.msgx.pipeline.pump.ReferenceProcessor;
import io.msgx.pipeline.pump.ReferenceSettings;
import io.msgx.pipeline.pump.TickResult;
import io.msgx.pipeline.request.ResponseMatcher;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * The pipeline wired as the runner wires it, minus threads: tests call {@link #pollOnce()}, {@link #tick()} or
 * {@link #runUntilQuiet()} and move the {@link SettableClock} themselves. Works over fakes or real adapters.
 */
public final class PipelineHarness {

    public final SettableClock clock;
    public final InboxPoller poller;
    public final Pump pump;

    public PipelineHarness(Mailbox mailbox, PipelineStore store, SettableClock clock, InboxSettings inbox,
                           ProcessingSettings processing) {
        this(mailbox, store, clock, inbox, processing, null);
    }

    /**
     * As the runner wires it with the pump's read-ahead of the next group's texts on {@code readAhead} (D-51; null:
     * none). The executor is the caller's to stop.
     */
    public PipelineHarness(Mailbox mailbox, PipelineStore store, SettableClock clock, InboxSettings inbox,
                           ProcessingSettings processing, Executor readAhead) {
        this(mailbox, store, clock, inbox, processing, readAhead, ReferenceSettings.defaults());
    }

    /** With these reference settings ({@code msgx.reference.*}). */
    public PipelineHarness(Mailbox mailbox, PipelineStore store, SettableClock clock, ReferenceSettings reference) {
        this(mailbox, store, clock, InboxSettings.defaults(), ProcessingSettings.defaults(), null, reference);
    }

    /** With this codec (its reference types: {@code msgx.codec.reference-types}). */
    public PipelineHarness(Mailbox mailbox, PipelineStore store, SettableClock clock, JacksonXmlCodec codec) {
        this(mailbox, store, clock, InboxSettings.defaults(), ProcessingSettings.defaults(), null,
                ReferenceSettings.defaults(), codec);
    }

    private PipelineHarness(Mailbox mailbox, PipelineStore store, SettableClock clock, InboxSettings inbox,
                            ProcessingSettings processing, Executor readAhead, ReferenceSettings reference) {
        this(mailbox, store, clock, inbox, processing, readAhead, reference, new JacksonXmlCodec());
    }

    private PipelineHarness(Mailbox mailbox, PipelineStore store, SettableClock clock, InboxSettings inbox,
                            ProcessingSettings processing, Executor readAhead, ReferenceSettings reference,
                            JacksonXmlCodec codec) {
        this.clock = clock;
        var engine = new FlightStateEngine(EngineSettings.defaults());
        var responses = new ResponseMatcher(EngineSettings.defaults().operationDayRule(), Duration.ofMinutes(2), mailbox);
        var flights = new FlightProcessor(store, engine, clock, responses,
                FlightCache.holding(processing.flightCacheSize()));
        var references = new ReferenceProcessor(store, clock, responses, reference);
        var processor = readAhead == null
                ? new MessageProcessor(mailbox, store, codec, flights, references, processing, clock, PipelineMetrics.NONE)
                : new MessageProcessor(mailbox, store, codec, flights, references, processing, clock, PipelineMetrics.NONE,
                        readAhead);
        this.poller = new InboxPoller(mailbox, store, clock, inbox, PipelineMetrics.NONE);
        this.pump = new Pump(store, processor, processing.retry(), processing.groupSize(), clock, PipelineMetrics.NONE);
    }

    public PipelineHarness(Mailbox mailbox, PipelineStore store, SettableClock clock) {
        this(mailbox, store, clock, InboxSettings.defaults(), ProcessingSettings.defaults());
    }

    public void pollOnce() {
        poller.pollOnce();
    }

    public TickResult tick() {
        return pump.tick();
    }

    /**
     * Poll and tick until the pump has nothing it may do now (idle, waiting for a retry, or held by the
     * watermark, or a service away); bounded so a bug cannot spin forever. Returns every tick's result.
     */
    public List<TickResult> runUntilQuiet() {
        var results = new ArrayList<TickResult>();
        for (int i = 0; i < 10_000; i++) {
            poller.pollOnce();
            var result = pump.tick();
            results.add(result);
            if (result instanceof TickResult.Idle || result instanceof TickResult.WaitingForRetry
                    || result instanceof TickResult.BeyondWatermark || result instanceof TickResult.StoreUnavailable
                    || result instanceof TickResult.Unavailable) {
                return results;
            }
        }
        throw new AssertionError("the pipeline did not become quiet within 10000 ticks");
    }
}
